package io.insika.router.server.cli;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Collectors;

import io.insika.router.server.config.ConfigDigest;

/**
 * {@code reload.watch-interval}: reads the configuration file, and the TLS files it names, every
 * interval and asks for a reload when their bytes changed. Bytes, not the modification time: a Kubernetes ConfigMap is
 * updated by swapping a symlink, and an editor may write the same content again. New bytes ask
 * once they have been read the same at two looks in a row, so a file caught mid-write (truncated,
 * then written) is not reloaded half-written and then again whole. A changed file asks once; a
 * file that then fails validation is not retried until it changes again.
 */
final class ConfigWatch implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ConfigWatch.class.getName());

    private final List<Path> files;
    private final Duration interval;
    private final Runnable changed;
    private final Thread watcher;
    // Only the watcher's thread touches these: the digest of the content last reloaded from (or
    // started with), and of new content seen at the last look, waiting for a second look.
    private String seen;
    private String pending;

    private ConfigWatch(List<Path> files, Duration interval, String loaded, Runnable changed) {
        this.files = List.copyOf(files);
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
        return start(List.of(file), interval, List.of(loaded), changed);
    }

    /**
     * Starts watching several files, asking for a reload when any of them changed.
     *
     * @param files    the configuration file, if any, and the TLS files it names
     * @param interval how often to look; positive
     * @param loaded   the {@link ConfigDigest} of each file's bytes the running configuration was
     *                 read from, in the same order
     * @param changed  asks for a reload; called on the watcher's thread, so it must not block long
     */
    static ConfigWatch start(List<Path> files, Duration interval, List<String> loaded, Runnable changed) {
        LOG.log(Level.INFO, "watching {0} for changes every {1} ms",
                files.stream().map(Path::toString).collect(Collectors.joining(", ")), interval.toMillis());
        return new ConfigWatch(files, interval, String.join(" ", loaded), changed);
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
                LOG.log(Level.INFO, "{0} changed: reloading", files.size() == 1 ? files.getFirst() : "a watched file");
                changed.run();
            } else {
                pending = now;
            }
        }
    }

    // null while a file cannot be read (a ConfigMap or Secret mid-swap): nothing to compare yet
    private String digest() {
        StringJoiner digests = new StringJoiner(" ");
        for (Path file : files) {
            try {
                digests.add(ConfigDigest.of(Files.readAllBytes(file)));
            } catch (IOException e) {
                return null;
            }
        }
        return digests.toString();
    }

    @Override
    public void close() {
        watcher.interrupt();
    }
}
