package io.insika.router.server;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import io.helidon.http.HeaderValues;
import io.helidon.json.JsonObject;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.server.config.ConfigKey;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.Settings;

/**
 * {@code GET /observe/config} on the admin port: the configuration the router runs with now (the
 * last reload's, if any), every key of {@link Settings} whole, and the file it was read from with
 * the digest of its bytes. {@code check --against} compares a file with it, key by key, and says
 * whether a reload would apply it. Holds no secret: a session secret is shown by its one-way
 * fingerprint, never its bytes or its file's path, and no key of the traffic is in it.
 */
final class ConfigEndpoint implements Handler {

    static final String PATH = "/observe/config";

    private final Supplier<RouterConfig> running;

    ConfigEndpoint(Supplier<RouterConfig> running) {
        this.running = running;
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        RouterConfig config = running.get();
        JsonObject.Builder keys = JsonObject.builder();
        for (ConfigKey key : Settings.all()) {
            keys.set(key.key(), key.canonical(config));
        }
        JsonObject.Builder body = JsonObject.builder();
        config.origins().file().ifPresentOrElse(file -> body.set("file", file), () -> body.setNull("file"));
        config.origins().sha256().ifPresentOrElse(sha -> body.set("sha256", sha), () -> body.setNull("sha256"));
        body.set("keys", keys.build()).set("version", Version.current());
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(body.build().toString().getBytes(StandardCharsets.UTF_8));
    }
}
