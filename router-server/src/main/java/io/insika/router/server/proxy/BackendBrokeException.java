package io.insika.router.server.proxy;

import io.helidon.webserver.CloseConnectionException;

/** The backend failed after its answer had started: the client connection must close. */
final class BackendBrokeException extends CloseConnectionException {

    BackendBrokeException(String message, Throwable cause) {
        super(message, cause);
    }
}
