package io.insika.router.server.backends;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.insika.router.api.Backend;
import io.insika.router.server.upstream.BackendClient;
import io.insika.router.server.upstream.Exchange;
import io.insika.router.server.upstream.RequestWriter;

/**
 * Active health checks: every interval, {@code GET path} on each backend of the pool, all at
 * once, each on a new connection (so a check proves the backend still accepts, not that an old
 * connection lingers). A 2xx or 3xx answer within the timeout marks it up; anything else marks
 * it down until a check passes. Sessions never move either way.
 */
public final class HealthChecker implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(HealthChecker.class.getName());

    private final HealthSettings settings;
    private final String path;
    private final Supplier<List<Backend>> pool;
    private final BackendStates states;
    private final BackendClient client;
    private final Thread loop;
    private volatile boolean closed;

    private HealthChecker(HealthSettings settings, Supplier<List<Backend>> pool, BackendStates states) {
        this.settings = settings;
        this.path = settings.path().orElseThrow();
        this.pool = pool;
        this.states = states;
        this.client = new BackendClient(settings.timeout(),
                () -> pool.get().stream().map(Backend::id).collect(Collectors.toUnmodifiableSet()));
        this.loop = Thread.ofVirtual().name("insika-health").unstarted(this::run);
    }

    /**
     * Starts checking, the first round at once.
     *
     * @param settings the path, interval and timeout; {@code path} must be present
     * @param pool     the backends to check now, read each round
     * @param states   where the outcome goes
     * @return the running checker; {@link #close()} stops it
     */
    public static HealthChecker start(HealthSettings settings, Supplier<List<Backend>> pool, BackendStates states) {
        HealthChecker checker = new HealthChecker(settings, pool, states);
        checker.loop.start();
        return checker;
    }

    private void run() {
        long interval = settings.interval().toNanos();
        long next = System.nanoTime();
        while (!closed) {
            List<Thread> round = new ArrayList<>();
            for (Backend backend : pool.get()) {
                round.add(Thread.ofVirtual().name("insika-health-check").start(() -> check(backend)));
            }
            try {
                for (Thread check : round) {
                    check.join(); // each ends within about twice the timeout: connect, then the head
                }
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(Duration.ofNanos(wait));
                } else {
                    next = System.nanoTime(); // a round overran: start the next at once, not a burst
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check(Backend backend) {
        BackendState state = states.of(backend);
        Exchange exchange;
        try {
            exchange = client.exchange(backend);
        } catch (IOException | RuntimeException e) {
            state.checkFailed("cannot connect: " + BackendState.detail(e));
            return;
        }
        try {
            RequestWriter request = exchange.request();
            request.requestLine("GET", path);
            request.header("Host", backend.id());
            request.header("User-Agent", "insika-router-health-check");
            request.header("Connection", "close");
            request.endHead(RequestWriter.NO_BODY);
            request.finish();
            int status = exchange.readHead().status();
            if (status >= 200 && status < 400) {
                state.answered();
            } else {
                state.checkFailed("GET " + path + " answered " + status);
            }
        } catch (IOException | RuntimeException e) {
            state.checkFailed("GET " + path + ": " + (exchange.timedOut() ? "no answer within "
                    + settings.timeout().toMillis() + " ms" : BackendState.detail(e)));
        } finally {
            exchange.discard();
        }
    }

    @Override
    public void close() {
        closed = true;
        loop.interrupt();
        client.close();
        try {
            loop.join(settings.timeout().multipliedBy(2).toMillis() + 100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOGGER.log(Level.DEBUG, "health checks stopped");
    }
}
