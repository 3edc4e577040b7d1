package io.insika.router.server.cli;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Semaphore;

import io.insika.router.server.config.DurationText;
import sun.misc.Signal;
import sun.misc.SignalHandler;

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
     *
     * <p>A process started with SIGHUP ignored ({@code nohup}, some supervisors) keeps ignoring
     * it: the JVM installs no handler for a signal ignored at its start. That is said at once,
     * since {@code kill -HUP} would otherwise do nothing, silently.
     *
     * @param watch {@code reload.watch-interval}: whether the file is watched, which still reloads
     */
    static ReloadSignal install(Duration watch) {
        ReloadSignal signal = new ReloadSignal();
        try {
            if (Signal.handle(new Signal("HUP"), hup -> signal.ask()) == SignalHandler.SIG_IGN) {
                LOG.log(Level.WARNING, ignored(watch));
            }
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "SIGHUP cannot be handled here ({0}): reload needs a restart", e.getMessage());
        }
        return signal;
    }

    static String ignored(Duration watch) {
        return "SIGHUP is ignored in this process (started with nohup?), so it does not reload the configuration: "
                + (watch.isPositive()
                        ? "only reload.watch-interval (" + DurationText.format(watch) + ") does"
                        : "set reload.watch-interval to reload on a change of the file, or start without SIGHUP"
                                + " ignored");
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
