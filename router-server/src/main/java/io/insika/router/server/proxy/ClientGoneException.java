package io.insika.router.server.proxy;

import java.io.IOException;

/** The client stopped sending its request body part-way: its connection broke or timed out. */
final class ClientGoneException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ClientGoneException(IOException cause) {
        super("client stopped sending the request body", cause);
    }
}
