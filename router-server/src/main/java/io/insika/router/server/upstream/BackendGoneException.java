package io.insika.router.server.upstream;

import java.io.IOException;

import io.insika.router.api.Backend;

/**
 * A kept connection, taken again without a look (within {@link BackendConnection#PROBE_AFTER} of
 * its release), failed before one byte of its answer came, and the backend now refuses new
 * connections: it went away with the connection, and the client is told what it would have been
 * told had the close been seen before the request was written, that the owner is unreachable.
 */
public final class BackendGoneException extends IOException {

    BackendGoneException(Backend backend, IOException failure) {
        super("backend " + backend.id() + " closed a kept connection under a request and accepts no new one", failure);
    }
}
