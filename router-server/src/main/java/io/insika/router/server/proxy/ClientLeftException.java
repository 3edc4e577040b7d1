package io.insika.router.server.proxy;

import io.helidon.webserver.CloseConnectionException;

/** The client went away during its exchange: its connection is closed, nobody is waiting. */
final class ClientLeftException extends CloseConnectionException {

    ClientLeftException(String message, Throwable cause) {
        super(message, cause);
    }
}
