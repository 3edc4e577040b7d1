package io.insika.router.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.insika.router.server.config.ConfigDigest;
import io.insika.router.server.testing.SecretVolume;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The file watch asks for a reload when the bytes of the file (or of a TLS file it names) change, and only then. */
class ConfigWatchTest {

    @TempDir
    Path dir;

    @Test
    void aChangeOfContentAsksOnceAndRewritingTheSameBytesOrAMomentWithoutAFileDoesNot() throws Exception {
        Path file = Files.writeString(dir.resolve("router.yaml"), "server: { port: 0 }\n");
        Semaphore asked = new Semaphore(0);
        String loaded = ConfigDigest.of(Files.readAllBytes(file));
        try (ConfigWatch watch = ConfigWatch.start(file, Duration.ofMillis(20), loaded, asked::release)) {
            Files.writeString(file, "server: { port: 0 }\n"); // touched, not changed
            assertThat(asked.tryAcquire(300, TimeUnit.MILLISECONDS), is(false));

            Files.writeString(file, "server: { port: 1 }\n");
            assertThat(asked.tryAcquire(5, TimeUnit.SECONDS), is(true));
            assertThat("one change, one reload", asked.tryAcquire(300, TimeUnit.MILLISECONDS), is(false));

            // a ConfigMap's swap: for a moment there is no file, then the new one
            Files.delete(file);
            assertThat(asked.tryAcquire(300, TimeUnit.MILLISECONDS), is(false));
            Path next = Files.writeString(dir.resolve("next.yaml"), "server: { port: 2 }\n");
            Files.move(next, file);
            assertThat(asked.tryAcquire(5, TimeUnit.SECONDS), is(true));
        }
    }

    @Test
    void aChangeMadeBeforeTheWatchStartedIsReloadedWithoutAnotherChange() throws Exception {
        Path file = Files.writeString(dir.resolve("router.yaml"), "server: { port: 0 }\n");
        String loaded = ConfigDigest.of(Files.readAllBytes(file));
        Files.writeString(file, "server: { port: 3 }\n"); // while the router was starting
        Semaphore asked = new Semaphore(0);
        try (ConfigWatch watch = ConfigWatch.start(file, Duration.ofMillis(20), loaded, asked::release)) {
            assertThat(asked.tryAcquire(5, TimeUnit.SECONDS), is(true));
        }
    }

    @Test
    void aTlsFileSwappedInAsTheKubeletUpdatesASecretAsksForAReload() throws Exception {
        Path yaml = Files.writeString(dir.resolve("router.yaml"), "server: { port: 0 }\n");
        SecretVolume secret = new SecretVolume(dir.resolve("tls"));
        secret.publish(Map.of("tls.crt", "first certificate", "tls.key", "first key"));
        List<Path> files = List.of(yaml, secret.file("tls.crt"), secret.file("tls.key"));
        List<String> loaded = List.of(digest(yaml), digest(secret.file("tls.crt")), digest(secret.file("tls.key")));
        Semaphore asked = new Semaphore(0);
        try (ConfigWatch watch = ConfigWatch.start(files, Duration.ofMillis(20), loaded, asked::release)) {
            assertThat(asked.tryAcquire(300, TimeUnit.MILLISECONDS), is(false));

            secret.publish(Map.of("tls.crt", "renewed certificate", "tls.key", "renewed key"));

            assertThat(asked.tryAcquire(5, TimeUnit.SECONDS), is(true));
            assertThat("one update, one reload", asked.tryAcquire(300, TimeUnit.MILLISECONDS), is(false));
        }
    }

    private static String digest(Path file) throws java.io.IOException {
        return ConfigDigest.of(Files.readAllBytes(file));
    }
}
