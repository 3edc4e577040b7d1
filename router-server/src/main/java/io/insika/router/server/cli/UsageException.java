package io.insika.router.server.cli;

/** The command line made no sense; the message says what was wrong, the usage line follows it. */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
