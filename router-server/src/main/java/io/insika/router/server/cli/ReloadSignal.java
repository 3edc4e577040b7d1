package io.insika.router.server.cli;

import java.lang.System.Logger.Level;
import java.util.concurrent.Semaphore;

import sun.misc.Signal;

/**
 * SIGHUP reloads the configuration, as it does for nginx and HAProxy's master. The JVM runs a
 * signal's handler on a thread of its own; the reload itself runs on one virtual thread here,
 * and signals that arrive while it runs ask for one more reload after it, not one each: the
 * file is read as it is when that reload starts.
 */
final class ReloadSignal {

    private static final System.Logger LOG = System.getLogger(ReloadSignal.class.getName());

    private final Semaphore asked = new Semaphore(0);
    private volatile Runnable reload;
    private volatile boolean stopping;
    private Thread worker;

    private ReloadSignal() {
    }

    /**
     * Handles SIGHUP from now on; call before starting, since the signal's default action ends
     * the process. One that arrives before {@link #reloadWith} is logged and dropped.
     */
    static ReloadSignal install() {
        ReloadSignal signal = new ReloadSignal();
        try {
            Signal.handle(new Signal("HUP"), hup -> signal.ask());
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "SIGHUP cannot be handled here ({0}): reload needs a restart", e.getMessage());
        }
        return signal;
    }

    /**
     * Starts reloading on SIGHUP.
     *
     * @param action what one reload does; it logs its own outcome
     */
    void reloadWith(Runnable action) {
        reload = action;
        worker = Thread.ofVirtual().name("insika-reload").start(this::run);
    }

    /**
     * No reload once the router is stopping: the stop has the last word. Waits for a reload
     * under way to finish, so the stop never closes a router half reconfigured.
     */
    void stop() {
        stopping = true;
        if (worker != null) {
            asked.release(); // wakes it to see the flag; a reload under way is not cut short
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Asks for a reload, as a SIGHUP does: from the file watch. */
    void ask() {
        if (stopping) {
            LOG.log(Level.INFO, "SIGHUP while stopping: ignored");
            return;
        }
        if (reload == null) {
            LOG.log(Level.WARNING, "SIGHUP while starting: ignored, nothing to reload yet");
            return;
        }
        // at most one waiting: a burst of signals is one reload of the file as it then is
        if (asked.availablePermits() == 0) {
            asked.release();
        }
    }

    private void run() {
        while (true) {
            try {
                asked.acquire();
            } catch (InterruptedException e) {
                return;
            }
            if (stopping) {
                return;
            }
            LOG.log(Level.INFO, "SIGHUP: reloading the configuration");
            try {
                reload.run();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "reload failed; the running configuration is kept", e);
            }
        }
    }
}
