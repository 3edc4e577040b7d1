package io.insika.router.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/insika-router} run as a process, as a user would: {@code JAVA_HOME} set to the
 * JDK running the tests, no {@code INSIKA_ROUTER_*} inherited, output captured in files.
 */
final class RouterProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile(
            "listening on https?://[^:]+:(\\d+) \\(proxy\\) and https?://[^:]+:(\\d+)/observe/health");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private int port;
    private int adminPort;

    private RouterProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Starts the script; returns at once. */
    static RouterProcess start(UnpackedDistribution dist, Map<String, String> env, String... args) {
        return start(dist.script(), System.getProperty("java.home"), env, args);
    }

    static RouterProcess start(Path script, String javaHome, Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("INSIKA_ROUTER_"));
        builder.environment().put("JAVA_HOME", javaHome);
        builder.environment().putAll(env);
        return start(builder);
    }

    /** Starts a command that ends in the router (a container's entrypoint) with exactly this environment. */
    static RouterProcess start(List<String> command, Map<String, String> environment) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(environment);
        return start(builder);
    }

    private static RouterProcess start(ProcessBuilder builder) {
        try {
            Path logs = Files.createDirectories(UnpackedDistribution.WORK);
            Path out = Files.createTempFile(logs, "router-out-", ".txt");
            Path err = Files.createTempFile(logs, "router-err-", ".txt");
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            return new RouterProcess(builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a command that ends by itself (check, route, --version) and waits for it. */
    static Result run(UnpackedDistribution dist, Map<String, String> env, String... args) {
        return run(dist.script(), System.getProperty("java.home"), env, args);
    }

    static Result run(Path script, String javaHome, Map<String, String> env, String... args) {
        try (RouterProcess router = start(script, javaHome, env, args)) {
            return router.awaitExit();
        }
    }

    /** Waits until the router logged its listening line; fails with its output if it died first. */
    RouterProcess awaitListening() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher matcher = LISTENING.matcher(stderr());
            if (matcher.find()) {
                port = Integer.parseInt(matcher.group(1));
                adminPort = Integer.parseInt(matcher.group(2));
                return this;
            }
            if (!process.isAlive()) {
                throw new AssertionError("the router exited " + process.exitValue() + " before listening:\n"
                        + stdout() + stderr());
            }
            sleep(20);
        }
        throw new AssertionError("the router did not listen within " + START_TIMEOUT + ":\n" + stderr());
    }

    int port() {
        return port;
    }

    int adminPort() {
        return adminPort;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** Sends SIGTERM (what {@link Process#destroy()} does on Linux) and returns at once. */
    void sigterm() {
        process.destroy();
    }

    /** Sends SIGTERM (what {@link Process#destroy()} does on Linux) and waits for the exit. */
    Result terminate() {
        process.destroy();
        return awaitExit();
    }

    Result awaitExit() {
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the router did not exit:\n" + stderr());
            }
            return new Result(process.exitValue(), stdout(), stderr());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** How a finished command ended. */
    record Result(int exitCode, String stdout, String stderr) {

        /** stderr's lines, without the JVM's own warnings. */
        List<String> errorLines() {
            return stderr.lines().filter(line -> !line.isBlank()).toList();
        }
    }
}
