package io.insika.router.server.cli;

/** The router cannot start for a reason the message states in one line. */
final class StartupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    StartupException(String message) {
        super(message);
    }
}
