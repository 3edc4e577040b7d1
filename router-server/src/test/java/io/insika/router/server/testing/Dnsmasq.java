package io.insika.router.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real dnsmasq on 127.0.0.1 and a free port, answering only from a hosts file the test
 * rewrites. It is authoritative for {@code .test} ({@code --local=/test/}): a name in no record
 * gets NXDOMAIN, a name with only other records gets NOERROR with no data. Any other domain, such
 * as {@code pods.forwarded}, is dnsmasq's to forward, and it has no upstream server: a query the
 * hosts file cannot answer is REFUSED, so a name there with only A records has its AAAA query
 * refused, as a dnsmasq forwarder with no upstream for it does. dnsmasq re-reads the hosts file
 * on SIGHUP, which {@link #records} sends and then waits for.
 */
public final class Dnsmasq implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(10);

    private final Path hosts;
    private final Path log;
    private final Process process;
    private final int port;

    private Dnsmasq(Path hosts, Path log, Process process, int port) {
        this.hosts = hosts;
        this.log = log;
        this.process = process;
        this.port = port;
    }

    /**
     * Starts dnsmasq with no records yet.
     *
     * @param dir         where its hosts file and log go
     * @param existingNames names that always exist (a TXT record) whether or not they have addresses
     * @return the running server
     */
    public static Dnsmasq start(Path dir, String... existingNames) {
        return startWith(dir, Stream.of(existingNames).map(Dnsmasq::existing).toList());
    }

    /**
     * Starts dnsmasq with no hosts-file records yet and answers the hosts file cannot give.
     *
     * @param dir     where its hosts file and log go
     * @param answers made by {@link #existing}, {@link #configuredAddress} and {@link #malformedAaaa}
     * @return the running server
     */
    public static Dnsmasq startWith(Path dir, List<String> answers) {
        String binary = binary();
        try {
            // dnsmasq started by root drops to "nobody", who must still read the hosts file on SIGHUP
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path hosts = dir.resolve("hosts");
            Files.writeString(hosts, "");
            Files.setPosixFilePermissions(hosts, PosixFilePermissions.fromString("rw-r--r--"));
            for (int attempt = 1; ; attempt++) {
                Path log = dir.resolve("dnsmasq-" + attempt + ".log");
                int port = freePort();
                List<String> command = new ArrayList<>(List.of(binary, "--keep-in-foreground", "--pid-file",
                        "--conf-file=/dev/null", "--no-resolv", "--no-hosts", "--local=/test/",
                        "--listen-address=127.0.0.1", "--bind-interfaces", "--port=" + port,
                        "--addn-hosts=" + hosts, "--log-facility=-"));
                command.addAll(answers);
                Process process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
                Dnsmasq dnsmasq = new Dnsmasq(hosts, log, process, port);
                if (dnsmasq.awaitLine("started, version")) {
                    return dnsmasq;
                }
                process.destroyForcibly();
                if (attempt == 3) {
                    fail("dnsmasq did not start; its log: " + Files.readString(log));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The name always exists (a TXT record), whether or not it has addresses. */
    public static String existing(String name) {
        return "--txt-record=" + name + ",exists";
    }

    /**
     * The name's address comes from the configuration, not the hosts file. Since dnsmasq 2.86 a
     * query for the other family then goes upstream, and {@code .test} has none: a name under it
     * answers one family's records and NXDOMAIN for the other.
     */
    public static String configuredAddress(String name, String ip) {
        return "--address=/" + name + "/" + ip;
    }

    /** Every AAAA query for the name is answered with a record of one byte, not sixteen: garbage no client can parse. */
    public static String malformedAaaa(String name) {
        return "--dns-rr=" + name + ",28,00";
    }

    /** Where to send queries. */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /**
     * Replaces every record and waits until dnsmasq has re-read them.
     *
     * @param lines hosts-file lines such as {@code 127.0.0.11 pods.test}
     */
    public void records(String... lines) {
        try {
            long readsBefore = count("read " + hosts);
            Path next = hosts.resolveSibling("hosts.next");
            Files.writeString(next, String.join("\n", lines) + "\n", StandardCharsets.US_ASCII);
            Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(next, hosts, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Process hup = new ProcessBuilder("kill", "-HUP", String.valueOf(process.pid())).start();
            if (hup.waitFor() != 0) {
                fail("kill -HUP " + process.pid() + " failed");
            }
            long deadline = System.nanoTime() + READY.toNanos();
            while (count("read " + hosts) <= readsBefore) {
                if (System.nanoTime() > deadline) {
                    fail("dnsmasq did not re-read its hosts file; its log: " + Files.readString(log));
                }
                Thread.sleep(10);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the server: its port then refuses queries. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private boolean awaitLine(String text) throws IOException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (System.nanoTime() < deadline) {
            if (count(text) > 0) {
                return true;
            }
            if (!process.isAlive()) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private long count(String text) throws IOException {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains(text)).count();
        }
    }

    private static String binary() {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "dnsmasq");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return fail("dnsmasq is not installed, and the DNS discovery tests need a real DNS server: "
                + "apt-get install dnsmasq-base (tools/ci-deps.sh does this on CI)");
    }

    private static int freePort() throws IOException {
        // dnsmasq serves UDP and TCP on the same port: both must be free
        while (true) {
            try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                int port = udp.getLocalPort();
                try (ServerSocket tcp = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    return tcp.getLocalPort();
                } catch (IOException taken) {
                    // try another
                }
            }
        }
    }
}
