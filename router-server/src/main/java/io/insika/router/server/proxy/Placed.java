package io.insika.router.server.proxy;

import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;

/**
 * Where a request goes: admitted to a backend, refused, or nowhere because there are no
 * backends. Each says what the head told of its key ({@link KeyLookup}), which the metrics count
 * and the access log writes whatever came of it.
 */
sealed interface Placed {

    KeyLookup lookup();

    /**
     * Sent to this backend, holding one of its slots (a request or a tunnel slot), which whoever
     * holds this gives back once.
     *
     * @param slot the backend's state, whose slot this request took
     */
    record Admitted(KeyLookup lookup, Backend backend, BackendState slot) implements Placed {
    }

    /**
     * Answered instead of forwarded: the owner (or every backend) is down or full, the session
     * is gone or its carrier forged, or a plugin failed. Holds no slot.
     *
     * @param owner  the backend that refused it (a session's owner); empty when every backend did,
     *               or none was asked
     * @param reason the answer
     */
    record Refused(KeyLookup lookup, Optional<Backend> owner, Outcome reason) implements Placed {

        /** The status of the answer: a gone session's is its route's to say. */
        int status() {
            return reason == Outcome.SESSION_GONE ? lookup.carrier().unknownOwnerStatus() : reason.status().code();
        }
    }

    /** The pool is empty: a discovery gap, answered with the retry envelope. */
    record NoBackend(KeyLookup lookup) implements Placed {
    }
}
