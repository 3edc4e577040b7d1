package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.Status;
import io.helidon.json.JsonObject;
import io.helidon.webserver.CloseConnectionException;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.routing.MissPolicy;

/**
 * Redirect mode ({@code on-miss: redirect | auto}): instead of proxying a keyed request, the
 * router answers {@code 421 Misdirected Request} with the owner's public address, so that a
 * client that follows goes straight there from then on: two requests once, then one forever.
 *
 * <p>A 421 is safe for a client to retry because nothing was forwarded: the router answers
 * before any backend sees a byte. It never redirects what cannot follow: a WebSocket upgrade, a
 * request that accepts {@code text/event-stream}, or one already redirected
 * {@code max-redirects} times ({@value #HOPS_HEADER}, which the 421 sets one higher and a
 * following client sends back). An owner without a {@code public-address} is proxied to; its
 * address is never guessed, and the internal one never published.
 */
final class Redirector {

    /** How many times a request was redirected already; the 421 carries the next count. */
    static final String HOPS_HEADER = "X-Insika-Redirects";
    private static final System.Logger LOGGER = System.getLogger(Redirector.class.getName());
    private static final HeaderName HOPS = HeaderNames.create(HOPS_HEADER);

    private final RouterMetrics metrics;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    Redirector(RouterMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Where to send the client instead of proxying, if this request is redirected.
     *
     * @param placed where the request was admitted
     */
    Optional<URI> target(Placed.Admitted placed, ServerRequestHeaders headers) {
        KeyLookup lookup = placed.lookup();
        if (lookup.how() != Placement.KEY || lookup.route() == null) {
            return Optional.empty();
        }
        MissPolicy policy = lookup.route().onMiss();
        if (policy.mode() == MissPolicy.Mode.PROXY || !policy.redirects(headers.first(HeaderNames.ORIGIN))
                || headers.contains(HeaderNames.UPGRADE) || acceptsEventStream(headers)
                || hops(headers) >= policy.maxRedirects()) {
            return Optional.empty();
        }
        Optional<URI> address = placed.backend().publicAddress();
        if (address.isEmpty()) {
            metrics.redirectUnavailable(placed.backend());
            if (warned.add(placed.backend().id())) {
                LOGGER.log(Level.WARNING, "backend {0} has no public-address: requests of {1} that would be"
                        + " redirected to it are proxied instead", placed.backend().id(), lookup.route());
            }
        }
        return address;
    }

    /**
     * Answers 421 with the owner's public address; the connection closes after it when the
     * request body was not read to its end.
     */
    void send(ProxyCall call, Placed.Admitted placed, URI owner) {
        ClientAnswer response = call.answer();
        boolean closeConnection = call.bodyLeftUnread();
        int next = hops(call.request().headers()) + 1;
        metrics.redirected(placed.lookup().route(), placed.backend());
        JsonObject body = JsonObject.builder()
                .set("error", JsonObject.builder()
                        .set("class", "Insika::Router::Misdirected")
                        .set("message", "send this call to its owner; nothing was run")
                        .set("retryable", true)
                        .build())
                .set("owner", JsonObject.builder().set("endpoint", owner.toString()).build())
                .set("redirects", next)
                .build();
        response.status(Status.MISDIRECTED_REQUEST_421);
        response.clearHeaders();
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(HOPS, String.valueOf(next));
        response.header(RequestId.HEADER, call.requestId());
        if (closeConnection) {
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
        response.send(body.toString().getBytes(StandardCharsets.UTF_8));
        if (closeConnection) {
            throw new CloseConnectionException("answered 421 with the request body unread");
        }
    }

    // A value that is not a small count is taken as "too many": such a request is proxied
    private static int hops(ServerRequestHeaders headers) {
        Optional<String> value = headers.first(HOPS);
        if (value.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(value.get().strip()));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static boolean acceptsEventStream(ServerRequestHeaders headers) {
        return headers.first(HeaderNames.ACCEPT).map(accept -> accept.toLowerCase(java.util.Locale.ROOT)
                .contains("text/event-stream")).orElse(false);
    }
}
