package io.insika.router.server.routing;

import java.util.Map;

/**
 * A request's route and the path parameters its template captured.
 *
 * @param route          the first route that matched
 * @param pathParameters captured, percent-decoded
 */
public record RouteMatch(Route route, Map<String, String> pathParameters) {
}
