package io.insika.router.server.routing;

import java.util.List;
import java.util.Set;

import io.insika.router.api.PluginOptions;

/**
 * The route table the router uses when the configuration names none: the seed's table.
 *
 * <p>{@code POST /v1/responses} and {@code POST /v1/messages} are keyed by the JSON field
 * {@code user}; {@code POST /channels/{id}/messages} and {@code /events} by {@code session_id};
 * Socket.IO's {@code /socket.io/*} (long-polling, then the WebSocket upgrade) by its
 * {@code stickyId} query parameter. Every other request, and a Socket.IO request without
 * {@code stickyId}, has no key and is round-robined. The shipped YAML says the same.
 */
public final class DefaultRoutes {

    private DefaultRoutes() {
    }

    public static List<RouteSpec> specs() {
        return List.of(
                jsonRoute(0, "/v1/responses", "user"),
                jsonRoute(1, "/v1/messages", "user"),
                jsonRoute(2, "/channels/{id}/messages", "session_id"),
                jsonRoute(3, "/channels/{id}/events", "session_id"),
                new RouteSpec(Set.of(), "/socket.io/*", List.of(new ExtractorSpec("query",
                        PluginOptions.of("routes[4].keys[0]", java.util.Map.of("name", "stickyId"))))));
    }

    private static RouteSpec jsonRoute(int index, String path, String field) {
        PluginOptions options = PluginOptions.of("routes[" + index + "].keys[0]", java.util.Map.of("field", field));
        return new RouteSpec(Set.of("POST"), path, List.of(new ExtractorSpec("json-field", options)));
    }
}
