package io.insika.router.server.proxy;

import io.insika.router.server.metrics.Placement;
import io.insika.router.server.routing.Route;

/**
 * What a request's head says of where it belongs, before any backend is asked: its route, its
 * key and how it was found (or why it has none), and its learned carriers.
 *
 * @param route            the route it matched, or {@code null} for none
 * @param how              by its key, or round-robin and why
 * @param key              its session key, or {@code null}; never logged in clear
 * @param carrier          its learned carriers (keys backends mint), read whatever its route;
 *                         {@link SessionCarrier#NONE} when no route learns one
 * @param carriersDisagree whether the route's carriers of the key (a header and a path segment)
 *                         held different values; the first decided
 */
record KeyLookup(Route route, Placement how, String key, SessionCarrier carrier, boolean carriersDisagree) {
}
