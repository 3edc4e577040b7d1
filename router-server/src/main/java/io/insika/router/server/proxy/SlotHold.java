package io.insika.router.server.proxy;

import io.insika.router.server.backends.BackendState;

/**
 * One request's hold on its backend's request slot, given back exactly once: when the backend's
 * answer has been read to its end, before its last bytes are written to the client, or else
 * when the request ends. Given back only when the request ended, a client that sends its next
 * request the moment the answer arrived, on another of its connections, would find a one-slot
 * owner still full (BackendSlotsTest).
 *
 * <p>Used by the request's own thread only: the relay and the handler's end run on it.
 */
final class SlotHold implements Runnable {

    /** No slot: a refused request, or no backends. */
    static final SlotHold NONE = new SlotHold(null);

    private final BackendState state;
    private boolean held;

    private SlotHold(BackendState state) {
        this.state = state;
        this.held = state != null;
    }

    /** The hold on the slot a placement took, or {@link #NONE} if it took none. */
    static SlotHold of(BackendState taken) {
        return taken == null ? NONE : new SlotHold(taken);
    }

    /** Gives the slot back, the first time only. */
    @Override
    public void run() {
        if (held) {
            held = false;
            state.endRequest();
        }
    }
}
