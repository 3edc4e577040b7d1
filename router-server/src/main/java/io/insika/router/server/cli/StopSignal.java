package io.insika.router.server.cli;

import java.util.concurrent.CountDownLatch;

import sun.misc.Signal;

/**
 * Waits for SIGTERM or SIGINT. A JVM shutdown hook cannot choose the exit status (the JVM exits
 * 143 after SIGTERM), and a graceful stop is a success: so the signals are handled here and the
 * process exits 0 once the router has stopped. A second signal while stopping runs the action
 * given to {@link #onRepeat} (the router skips the rest of its stop delay): Ctrl-C twice.
 */
final class StopSignal {

    private final CountDownLatch received = new CountDownLatch(1);
    private volatile Runnable onRepeat = () -> { };

    private StopSignal() {
    }

    /** Installs the handlers; call before starting, so a signal during start-up is not lost. */
    static StopSignal install() {
        StopSignal stop = new StopSignal();
        Signal.handle(new Signal("TERM"), signal -> stop.signalled());
        Signal.handle(new Signal("INT"), signal -> stop.signalled());
        return stop;
    }

    /** What a second signal does. */
    void onRepeat(Runnable action) {
        onRepeat = action;
    }

    private void signalled() {
        if (received.getCount() == 0) {
            onRepeat.run();
        } else {
            received.countDown();
        }
    }

    void await() {
        try {
            received.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
