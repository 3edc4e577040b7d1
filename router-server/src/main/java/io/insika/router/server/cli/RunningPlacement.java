package io.insika.router.server.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;

/**
 * How a running router places keys, as its admin port's {@code /observe/backends} says: the
 * strategy, its options, the backends (ids, addresses, weights) and the ring fingerprint.
 *
 * @param strategy    the strategy's name
 * @param options     its options
 * @param backends    the backends in its pool now
 * @param fingerprint its {@code insika_router_ring_info} fingerprint
 */
record RunningPlacement(String strategy, PluginOptions options, List<Backend> backends, String fingerprint) {

    /** Reads it from a router's admin URL; fails with a sentence an operator can act on. */
    static RunningPlacement fetch(URI admin) {
        URI endpoint = admin.resolve("/observe/backends");
        String body = AdminJson.get(endpoint).orElseThrow(() -> new StartupException(endpoint
                + " answered 404: is this a router's admin port?"));
        try {
            JsonObject json = JsonParser.create(body).readJsonObject();
            Map<String, String> options = new TreeMap<>();
            JsonObject given = json.objectValue("strategy-options", JsonObject.empty());
            given.keysAsStrings().forEach(name -> options.put(name, given.stringValue(name, "")));
            List<Backend> backends = new ArrayList<>();
            for (JsonValue value : json.arrayValue("backends").orElseThrow().values()) {
                JsonObject backend = (JsonObject) value;
                backends.add(Backend.of(URI.create(backend.stringValue("address").orElseThrow()),
                        backend.intValue("weight", 1)).withId(backend.stringValue("id").orElseThrow()));
            }
            return new RunningPlacement(json.stringValue("strategy").orElseThrow(),
                    PluginOptions.of("strategy.options", options), List.copyOf(backends),
                    json.stringValue("ring-fingerprint").orElseThrow());
        } catch (RuntimeException e) {
            throw new StartupException(endpoint + " did not answer as a router of this version does (" + e + ")");
        }
    }
}
