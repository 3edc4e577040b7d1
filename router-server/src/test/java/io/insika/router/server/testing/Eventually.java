package io.insika.router.server.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Polls for a condition with a bounded deadline: never a fixed sleep. */
public final class Eventually {

    private Eventually() {
    }

    public static void await(Duration deadline, BooleanSupplier condition, Supplier<String> lastSeen) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + deadline + "; last seen: " + lastSeen.get());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }
}
