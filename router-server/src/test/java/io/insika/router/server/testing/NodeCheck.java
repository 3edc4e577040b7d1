package io.insika.router.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * One of the Node.js checks under {@code clients/} (a real npm client or server library): its
 * packages installed from the lock file on first use, its {@code server.mjs} processes started
 * and stopped, and its scripts run. Node and npm come from {@code tools/ci-deps.sh}.
 */
public final class NodeCheck implements AutoCloseable {

    private final Path directory;
    private final List<Process> servers = new ArrayList<>();

    private NodeCheck(Path directory) {
        this.directory = directory;
    }

    /**
     * @param name   the folder under {@code clients/}, such as {@code mcp-check}
     * @param module a package of its lock file: when it is installed, {@code npm ci} is skipped
     */
    public static NodeCheck of(String name, String module) throws Exception {
        NodeCheck check = new NodeCheck(Path.of("../clients", name).toAbsolutePath().normalize());
        if (!Files.isDirectory(check.directory.resolve("node_modules").resolve(module))) {
            check.run(List.of("npm", "ci", "--no-audit", "--no-fund"), 150);
        }
        return check;
    }

    /** Starts {@code node server.mjs NAME}; returns the port its first line, {@code listening PORT}, names. */
    public int startServer(String name) throws IOException {
        Process server = PeerProgram.start(new ProcessBuilder("node", "server.mjs", name).directory(directory.toFile())
                .redirectErrorStream(true));
        servers.add(server);
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (first == null || !first.startsWith("listening ")) {
            throw new IllegalStateException(directory.getFileName() + " server " + name + " did not start: " + first);
        }
        return Integer.parseInt(first.substring("listening ".length()).strip());
    }

    /** Runs a command in the check's folder; asserts it ends within the time, with status 0, and returns its output. */
    public String run(List<String> command, int seconds) throws Exception {
        return run(command, Map.of(), seconds);
    }

    /** As {@link #run(List, int)}, with these variables added to the environment. */
    public String run(List<String> command, Map<String, String> environment, int seconds) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = PeerProgram.start(builder);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(String.join(" ", command) + " timed out: " + output, process.waitFor(seconds, TimeUnit.SECONDS),
                is(true));
        assertThat(String.join(" ", command) + ": " + output, process.exitValue(), is(0));
        return output;
    }

    /** Stops the servers it started. */
    @Override
    public void close() {
        servers.forEach(Process::destroy);
        servers.clear();
    }
}
