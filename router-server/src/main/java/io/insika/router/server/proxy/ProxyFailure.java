package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.server.metrics.BackendError;

/**
 * The answers the router gives in a backend's place. Request-path failures map to a status here
 * and nowhere else.
 *
 * <p>Only {@link #UNAVAILABLE} says "retryable": it is sent when no byte of the request reached
 * any backend (the owner refused the connection, timed out connecting, or there is no backend),
 * so the client may safely send the request again. Once a backend may have seen the request the
 * router cannot know whether it ran, and says so with a non-retryable 502 or 504.
 */
enum ProxyFailure {

    /** The owner could not be reached, or there are no backends: retry later. */
    UNAVAILABLE(Status.SERVICE_UNAVAILABLE_503, BackendError.UNREACHABLE,
            "{\"error\":{\"class\":\"Insika::Router::BackendUnavailable\",\"message\":\"no backend reachable\","
                    + "\"retryable\":true,\"retry_after\":1}}"),
    /** The owner took the request and then failed before answering. */
    BACKEND_FAILED(Status.BAD_GATEWAY_502, BackendError.FAILED,
            "{\"error\":{\"class\":\"Insika::Router::BackendFailed\",\"message\":\"backend failed before responding\","
                    + "\"retryable\":false}}"),
    /** The owner took the request and stayed silent past backend-timeout. */
    BACKEND_TIMEOUT(Status.GATEWAY_TIMEOUT_504, BackendError.TIMEOUT,
            "{\"error\":{\"class\":\"Insika::Router::BackendTimeout\",\"message\":\"backend did not respond in time\","
                    + "\"retryable\":false}}");

    private final Status status;
    private final BackendError error;
    private final byte[] body;

    ProxyFailure(Status status, BackendError error, String body) {
        this.status = status;
        this.error = error;
        this.body = body.getBytes(StandardCharsets.UTF_8);
    }

    /** How the metrics count it. */
    BackendError error() {
        return error;
    }

    /**
     * Sends this answer.
     *
     * @param response        the client's response, not yet sent
     * @param closeConnection whether the client's connection must close afterwards: when the
     *                        request body was not read to its end, closing is cheaper and safer
     *                        than draining an upload nobody will use
     */
    void send(ServerResponse response, boolean closeConnection) {
        response.status(status);
        response.headers().clear();
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        if (this == UNAVAILABLE) {
            response.header(HeaderNames.RETRY_AFTER, "1");
        }
        if (closeConnection) {
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
        response.send(body);
    }
}
