package io.insika.router.server.proxy;

import io.helidon.webserver.CloseConnectionException;

/** The client went away during its exchange: its connection is closed, nobody is waiting. */
final class ClientLeftException extends CloseConnectionException {

    ClientLeftException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the router cut it for pausing too long ({@code client-body-timeout}). */
    boolean timedOut() {
        for (Throwable cause = getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof ClientStallWatchdog.ClientBodyTimeoutException
                    || cause instanceof ClientStallWatchdog.ClientSendTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
