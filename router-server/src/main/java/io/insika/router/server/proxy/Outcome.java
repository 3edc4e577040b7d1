package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.insika.router.server.metrics.BackendError;

import static io.insika.router.server.proxy.Outcome.Bodies.BACKEND_FULL_BODY;
import static io.insika.router.server.proxy.Outcome.Bodies.OVERLOADED_BODY;
import static io.insika.router.server.proxy.Outcome.Bodies.UNAVAILABLE_BODY;

/**
 * How a request ended: the one value that gives its answer (when the router answers in the
 * backend's place: a status and an envelope), its count against the backend in the metrics,
 * and its access log {@code error}. Request-path outcomes map to these here and nowhere else.
 *
 * <p>Only {@link #UNAVAILABLE} says "retryable": it is sent when no byte of the request reached
 * any backend (the owner refused the connection, timed out connecting, or there is no backend),
 * so the client may safely send the request again; {@link #OVERLOADED}, {@link #BACKEND_DOWN} and
 * {@link #BACKEND_FULL} likewise. Once a backend may have seen the request the
 * router cannot know whether it ran, and says so with a non-retryable 502 or 504.
 * {@link #BAD_REQUEST} refuses what the client sent before any backend saw it.
 */
enum Outcome {

    /** The backend's answer was relayed to the client, whatever its status. */
    RELAYED(null, null, null, null),
    /** Answered 421 with the owner's public address ({@link Redirector}): nothing was forwarded. */
    REDIRECTED(null, null, null, null),
    /** The backend failed after its answer had started: the client connection was cut. */
    BROKEN(null, BackendError.BROKEN, null, null),
    /** The client went away mid-request or mid-answer: nothing more could be sent to it. */
    CLIENT_LEFT(null, null, "client-left", null),
    /** The client paused past its timeout (or below its rate) and was cut. */
    CLIENT_TIMEOUT(null, null, "client-timeout", null),
    /** The router failed: a bug, answered 500 by the connection if nothing was sent yet. */
    INTERNAL(null, null, "internal", null),

    /** The owner could not be reached: retry later. */
    UNAVAILABLE(Status.SERVICE_UNAVAILABLE_503, BackendError.UNREACHABLE, null, UNAVAILABLE_BODY),
    /**
     * The router is full (max-requests in flight, or no key-peek budget left): retry later. No
     * backend saw any of the request.
     */
    OVERLOADED(Status.SERVICE_UNAVAILABLE_503, null, "overloaded", OVERLOADED_BODY),
    /**
     * The owner is marked down (a connect failed lately, or its health check fails), or every
     * backend is: the same answer as {@link #UNAVAILABLE}, given without trying.
     */
    BACKEND_DOWN(Status.SERVICE_UNAVAILABLE_503, null, "backend-down", UNAVAILABLE_BODY),
    /**
     * The owner has all its slots in use ({@code max-requests} or {@code max-tunnels}), or every
     * backend has: retry later. Never another backend for a session.
     */
    BACKEND_FULL(Status.SERVICE_UNAVAILABLE_503, null, "backend-full", BACKEND_FULL_BODY),
    /** There are no backends: the same answer as {@link #UNAVAILABLE}, counted apart. */
    NO_BACKEND(Status.SERVICE_UNAVAILABLE_503, BackendError.NO_BACKEND, null, UNAVAILABLE_BODY),
    /** The owner took the request and then failed before answering, or answered what is not HTTP. */
    BACKEND_FAILED(Status.BAD_GATEWAY_502, BackendError.FAILED, null,
            "{\"error\":{\"class\":\"Insika::Router::BackendFailed\",\"message\":\"backend failed before responding\","
                    + "\"retryable\":false}}"),
    /** The owner took the request and stayed silent past backend-timeout. */
    BACKEND_TIMEOUT(Status.GATEWAY_TIMEOUT_504, BackendError.TIMEOUT, null,
            "{\"error\":{\"class\":\"Insika::Router::BackendTimeout\",\"message\":\"backend did not respond in time\","
                    + "\"retryable\":false}}"),
    /**
     * The session id the client sent is not one this router sealed (forged, cut, sealed with
     * another secret), or the client sent it twice: no backend saw any of it.
     */
    BAD_SESSION(Status.BAD_REQUEST_400, null, "bad-session",
            "{\"error\":{\"class\":\"Insika::Router::BadSession\",\"message\":\"the session id was not issued by"
                    + " this router, or was sent twice\",\"retryable\":false}}"),
    /**
     * The backend that minted the session is no longer one of the backends: the session is gone.
     * Sent with its route's {@code unknown-owner-status} (404 unless configured, which tells an
     * MCP client to initialize again), never forwarded to another backend.
     */
    SESSION_GONE(Status.NOT_FOUND_404, null, "session-gone",
            "{\"error\":{\"class\":\"Insika::Router::SessionGone\",\"message\":\"the backend that held this"
                    + " session is gone; start a new session\",\"retryable\":false}}"),
    /**
     * A plugin of the router (the strategy, or one of the route's key extractors) threw instead
     * of answering: the router cannot tell where the request belongs, and sends it nowhere. No
     * backend saw any of it, but sending it again meets the same plugin.
     */
    PLUGIN_FAILED(Status.INTERNAL_SERVER_ERROR_500, null, "plugin-failed",
            "{\"error\":{\"class\":\"Insika::Router::PluginFailed\",\"message\":\"a plugin of the router failed"
                    + " placing the request; no backend saw it\",\"retryable\":false}}"),
    /**
     * The client's request cannot be forwarded as it is (a header octet the router cannot relay
     * unchanged, a body whose framing is invalid): no backend saw any of it.
     */
    BAD_REQUEST(Status.BAD_REQUEST_400, null, "bad-request",
            "{\"error\":{\"class\":\"Insika::Router::BadRequest\",\"message\":\"the request cannot be forwarded as sent\","
                    + "\"retryable\":false}}");

    private final Status status;
    private final BackendError error;
    private final String label;
    private final byte[] body;

    Outcome(Status status, BackendError error, String label, String body) {
        this.status = status;
        this.error = error;
        this.label = error != null ? error.label() : label;
        this.body = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the router answers in the backend's place: then it has a status and an envelope. */
    boolean answers() {
        return body != null;
    }

    /** The status of the router's answer; {@code null} when it gives none. */
    Status status() {
        return status;
    }

    /** How the metrics count it against the backend; {@code null} when it is no backend's fault. */
    BackendError error() {
        return error;
    }

    /** The access log's {@code error} value; {@code null} for a request that ended well. */
    String label() {
        return label;
    }

    /**
     * Sends this answer.
     *
     * @param response        the client's response, not yet sent
     * @param closeConnection whether the client's connection must close afterwards: when the
     *                        request body was not read to its end, what is left of it must never
     *                        be read as the next request
     * @param requestId       the request's {@link RequestId}, returned to the client
     * @throws CloseConnectionException after sending, when {@code closeConnection}: Helidon 4.5
     *                                  keeps a connection open whatever the answer says
     */
    void send(ClientAnswer response, boolean closeConnection, String requestId) {
        send(response, closeConnection, status, requestId);
    }

    /** {@link #send(ClientAnswer, boolean, String)} with another status than this failure's own. */
    void send(ClientAnswer response, boolean closeConnection, int code, String requestId) {
        send(response, closeConnection, code == status.code() ? status : Status.create(code), requestId);
    }

    private void send(ClientAnswer response, boolean closeConnection, Status status, String requestId) {
        int code = status.code();
        response.status(status);
        response.clearHeaders();
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(RequestId.HEADER, requestId);
        if (code == Status.SERVICE_UNAVAILABLE_503.code()) {
            response.header(HeaderNames.RETRY_AFTER, "1");
        }
        if (closeConnection) {
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
        response.send(body);
        if (closeConnection) {
            throw new CloseConnectionException("answered " + status.code() + " with the request body unread");
        }
    }

    /** Held apart: an enum's constants cannot read its own static fields. */
    static final class Bodies {
        static final String UNAVAILABLE_BODY = "{\"error\":{\"class\":\"Insika::Router::BackendUnavailable\","
                + "\"message\":\"no backend reachable\",\"retryable\":true,\"retry_after\":1}}";
        static final String OVERLOADED_BODY = "{\"error\":{\"class\":\"Insika::Router::Overloaded\","
                + "\"message\":\"the router is at capacity\",\"retryable\":true,\"retry_after\":1}}";
        static final String BACKEND_FULL_BODY = "{\"error\":{\"class\":\"Insika::Router::BackendFull\","
                + "\"message\":\"the backend is at capacity\",\"retryable\":true,\"retry_after\":1}}";

        private Bodies() {
        }
    }
}
