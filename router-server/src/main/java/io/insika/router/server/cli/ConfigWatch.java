package io.insika.router.server.cli;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.insika.router.server.config.ConfigDigest;

/**
 * {@code reload.watch-interval}: reads the configuration file every interval and asks for a
 * reload when its bytes changed. Bytes, not the modification time: a Kubernetes ConfigMap is
 * updated by swapping a symlink, and an editor may write the same content again. New bytes ask
 * once they have been read the same at two looks in a row, so a file caught mid-write (truncated,
 * then written) is not reloaded half-written and then again whole. A changed file asks once; a
 * file that then fails validation is not retried until it changes again.
 */
final class ConfigWatch implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ConfigWatch.class.getName());

    private final Path file;
    private final Duration interval;
    private final Runnable changed;
    private final Thread watcher;
    // Only the watcher's thread touches these: the digest of the content last reloaded from (or
    // started with), and of new content seen at the last look, waiting for a second look.
    private String seen;
    private String pending;

    private ConfigWatch(Path file, Duration interval, String loaded, Runnable changed) {
        this.file = file;
        this.interval = interval;
        this.changed = changed;
        this.seen = loaded;
        this.watcher = Thread.ofVirtual().name("insika-config-watch").start(this::watch);
    }

    /**
     * Starts watching.
     *
     * @param file     the file the router was started with
     * @param interval how often to look; positive
     * @param loaded   the {@link ConfigDigest} of the bytes the running configuration was read from
     * @param changed  asks for a reload; called on the watcher's thread, so it must not block long
     */
    static ConfigWatch start(Path file, Duration interval, String loaded, Runnable changed) {
        LOG.log(Level.INFO, "watching {0} for changes every {1} ms", file, interval.toMillis());
        return new ConfigWatch(file, interval, loaded, changed);
    }

    private void watch() {
        while (true) {
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
            String now = digest();
            if (now == null) {
                continue;
            }
            if (now.equals(seen)) {
                pending = null;
            } else if (now.equals(pending)) {
                seen = now;
                pending = null;
                LOG.log(Level.INFO, "{0} changed: reloading", file);
                changed.run();
            } else {
                pending = now;
            }
        }
    }

    // null while the file cannot be read (a ConfigMap mid-swap): nothing to compare yet
    private String digest() {
        try {
            return ConfigDigest.of(Files.readAllBytes(file));
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        watcher.interrupt();
    }
}
