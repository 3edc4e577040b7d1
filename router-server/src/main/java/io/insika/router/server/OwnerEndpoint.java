package io.insika.router.server;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.json.JsonObject;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.PluginFailedException;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * {@code GET /observe/owner?key=K} on the admin port: the backend this router sends session K to
 * now, from the very snapshot requests use. In DNS mode, {@code bin/insika-router route} resolves
 * the name itself and may see another moment's pods; this asks the running replica. When the
 * strategy throws for K, it answers 500 with what it threw, as the proxy answers K's requests.
 */
final class OwnerEndpoint implements Handler {

    static final String PATH = "/observe/owner";

    private final BackendPool pool;

    OwnerEndpoint(BackendPool pool) {
        this.pool = pool;
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        Optional<String> key = request.query().first("key").asOptional().filter(k -> !k.isBlank());
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        if (key.isEmpty()) {
            response.status(Status.BAD_REQUEST_400);
            response.send(bytes("{\"error\":\"name the session key: " + PATH + "?key=...\"}"));
            return;
        }
        RoutingSnapshot snapshot = pool.snapshot();
        Optional<Backend> owner;
        try {
            owner = snapshot.owner(key.get());
        } catch (PluginFailedException e) {
            // what the proxy answers this key's requests with, and why
            response.status(Status.INTERNAL_SERVER_ERROR_500);
            response.send(bytes(JsonObject.builder().setNull("backend").set("backends", snapshot.backends().size())
                    .set("error", e.getMessage()).build().toString()));
            return;
        }
        if (owner.isEmpty()) {
            response.status(Status.SERVICE_UNAVAILABLE_503);
        }
        // a backend id is a host and a port: nothing in it needs escaping
        response.send(bytes("{\"backend\":" + owner.map(b -> "\"" + b.id() + "\"").orElse("null")
                + ",\"backends\":" + snapshot.backends().size() + "}"));
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
