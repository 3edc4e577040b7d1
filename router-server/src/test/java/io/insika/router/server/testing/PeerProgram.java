package io.insika.router.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * An outside program the interop tests run as a real peer of the router, found where Debian
 * installs it. A missing one fails the test with the command that installs it (tools/ci-deps.sh
 * runs them all on CI): an interop test that skips would prove nothing. A server it starts
 * listens on a loopback port, writes its output to a log in the test's directory, is waited for
 * until it accepts connections, and is stopped by closing it.
 */
public enum PeerProgram {
    NGINX("nginx", "nginx"),
    HAPROXY("haproxy", "haproxy"),
    AB("ab", "apache2-utils"),
    CURL("curl", "curl"),
    /** {@code s_client}: a TLS client that offers what a test asks, old protocols included. */
    OPENSSL("openssl", "openssl"),
    NODE("node", "nodejs"),
    NPM("npm", "npm"),
    /** Debian's, not one a version manager puts first on the PATH. */
    PYTHON3("python3", "python3");

    private static final Duration READY = Duration.ofSeconds(10);
    private static final List<String> DIRECTORIES = List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin");

    private final String binary;
    private final String debianPackage;

    PeerProgram(String binary, String debianPackage) {
        this.binary = binary;
        this.debianPackage = debianPackage;
    }

    /** Where the program is, or a failure naming the package to install. */
    public String path() {
        List<String> directories = new ArrayList<>(DIRECTORIES);
        directories.addAll(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        for (String dir : directories) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, binary);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return fail(binary + " is not installed, and the interop tests run it as a real peer of the router: "
                + installCommand());
    }

    /**
     * Starts a command, failing with the command that installs its program when that is one of
     * these and is missing; any other failure to start is the test's error.
     */
    public static Process start(ProcessBuilder command) throws IOException {
        try {
            return command.start();
        } catch (IOException e) {
            String program = Path.of(command.command().getFirst()).getFileName().toString();
            for (PeerProgram peer : values()) {
                if (peer.binary.equals(program)) {
                    throw new AssertionError("cannot run " + program + " (" + e.getMessage() + "): "
                            + peer.installCommand(), e);
                }
            }
            throw e;
        }
    }

    private String installCommand() {
        return "apt-get install " + debianPackage + " (tools/ci-deps.sh, which tools/test.sh runs, installs it)";
    }

    /**
     * Starts the program as a server on a free loopback port and waits until that port accepts.
     * A port taken between choosing and binding it gets another try with another port.
     *
     * @param dir       where its log goes (and whatever {@code arguments} writes there)
     * @param name      names its log, {@code NAME.log}
     * @param arguments the arguments after the program, given the port it is to listen on
     *                  (a function may write a configuration file naming it)
     * @return the running server
     */
    public Server listen(Path dir, String name, IntFunction<List<String>> arguments) {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            Path log = dir.resolve(name + "-" + attempt + ".log");
            Process process = start(command(arguments.apply(port)), log, ProcessBuilder.Redirect.to(log.toFile()));
            Server server = new Server(process, port, log);
            if (server.awaitAccepting()) {
                return server;
            }
            server.close();
            if (attempt == 3) {
                fail(binary + " did not listen on 127.0.0.1:" + port + "; its log:\n" + read(log));
            }
        }
    }

    /**
     * Starts the program as a server that chooses its own port and prints it as the first line
     * of standard output; waits for that line. Its standard input stays open until it is closed,
     * for servers that end when it does.
     */
    public Server announcing(Path dir, String name, String... arguments) {
        Path log = dir.resolve(name + ".log");
        Process process = start(command(List.of(arguments)), log, ProcessBuilder.Redirect.PIPE);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first;
        try {
            first = out.readLine();
        } catch (IOException e) {
            first = null;
        }
        if (first == null || !first.strip().matches("[0-9]{1,5}")) {
            process.destroyForcibly();
            return fail(name + " did not print its port (first line: " + first + "); its log:\n" + read(log));
        }
        // the rest of its standard output, never read, must not fill the pipe and block it
        Thread.ofVirtual().start(() -> drain(out));
        return new Server(process, Integer.parseInt(first.strip()), log);
    }

    /**
     * Runs the program to its end.
     *
     * @return its exit status and everything it wrote, standard error included
     */
    public Run run(Duration limit, String... arguments) {
        try {
            Process process = new ProcessBuilder(command(List.of(arguments))).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                fail(binary + " did not end within " + limit + ": " + new String(output, StandardCharsets.UTF_8));
            }
            return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A loopback port nothing listens on now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(path());
        command.addAll(arguments);
        return command;
    }

    private static Process start(List<String> command, Path log, ProcessBuilder.Redirect out) {
        try {
            return new ProcessBuilder(command).redirectError(log.toFile()).redirectOutput(out).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void drain(BufferedReader out) {
        try (out) {
            while (out.readLine() != null) {
                // nothing to keep
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** What a program that ran to its end left. */
    public record Run(int status, String output) {
    }

    /** A peer program serving on 127.0.0.1; closing it stops it. */
    public static final class Server implements AutoCloseable {

        private final Process process;
        private final int port;
        private final Path log;

        private Server(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        public int port() {
            return port;
        }

        /** {@code http://127.0.0.1:PORT}. */
        public String url() {
            return "http://127.0.0.1:" + port;
        }

        /** What it wrote so far, for a failure message. */
        public String log() {
            return read(log);
        }

        private boolean awaitAccepting() {
            long deadline = System.nanoTime() + READY.toNanos();
            while (System.nanoTime() < deadline && process.isAlive()) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                    return true;
                } catch (IOException notYet) {
                    sleep();
                }
            }
            return false;
        }

        private static void sleep() {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Closes its standard input (some servers end with it), then stops it. */
        @Override
        public void close() {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already gone
            }
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
