package io.insika.router.distribution;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Builds the distribution's AOT cache at package time (JDK 25+): runs the unpacked
 * {@code bin/insika-router} as a user would, on the shipped configuration, in front of three real
 * backends, drives the traffic a router sees (keyed and unkeyed requests, chunked and
 * fixed-length bodies, bad JSON, a Socket.IO handshake, every admin endpoint), stops it with
 * SIGTERM and lets the JVM write {@code lib/insika-router.aot} on its way out.
 *
 * <p>Beside the cache goes {@code lib/insika-router.aot.id}: the runtime version that built it
 * and the checksums of the jars it was built from, as {@code bin/insika-router} computes them.
 * The script passes {@code -XX:AOTCache} only when both still match, because JDK 25 does not
 * notice a changed jar by itself (JDK-8377932) and would serve classes from the cache instead.
 *
 * <p>Run by the exec plugin between the unpacked assembly and the tarball:
 * {@code AotTraining <unpacked home>}; and by the container image's build for the image's own
 * jlinked runtime: {@code AotTraining <home> <java home> <work dir>}. On a JDK older than 25 it
 * builds nothing and the router starts without a cache.
 */
public final class AotTraining {

    static final String CACHE = "insika-router.aot";
    static final String CACHE_ID = CACHE + ".id";
    private static final int ROUNDS = 150;
    /** Held so the level sticks: the backends' INFO lines would only clutter the build's output. */
    private static final java.util.logging.Logger HELIDON = java.util.logging.Logger.getLogger("io.helidon");

    private AotTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]).toAbsolutePath();
        Path javaHome = Path.of(args.length > 1 ? args[1] : System.getProperty("java.home")).toAbsolutePath();
        Path cache = home.resolve("lib").resolve(CACHE);
        Path id = home.resolve("lib").resolve(CACHE_ID);
        Files.deleteIfExists(cache);
        Files.deleteIfExists(id);
        if (Runtime.version().feature() < 25) {
            System.out.println("AOT cache: not built (needs JDK 25+ to build, this is " + Runtime.version() + ")");
            return;
        }
        HELIDON.setLevel(java.util.logging.Level.WARNING);
        Path work = Files.createDirectories(args.length > 2 ? Path.of(args[2]) : home.getParent().resolve("aot-training"));
        Path config = Files.writeString(work.resolve("router.yaml"),
                Files.readString(home.resolve("conf/insika-router.yaml")).replace("admin-port: 9091", "admin-port: 0"));
        List<WhoAmIBackend> backends = List.of(new WhoAmIBackend("b1"), new WhoAmIBackend("b2"),
                new WhoAmIBackend("b3"));
        try {
            Map<String, String> env = Map.of(
                    "INSIKA_ROUTER_CONFIG", config.toString(),
                    "INSIKA_ROUTER_HOST", "127.0.0.1",
                    "INSIKA_ROUTER_PORT", "0",
                    "INSIKA_ROUTER_BACKENDS", backends.stream().map(b -> b.uri().toString())
                            .collect(Collectors.joining(",")),
                    // Adapters and stubs stay out of the cache: 25.0.3 finds some saved under a
                    // clashing hash and warns about each at every start (JDK-8364929). So do
                    // the training run's method profiles: replayed, they cost 15% more CPU per
                    // request for good (bench/cpu-ab.sh, 6 rounds at c32, against no cache),
                    // because C2 compiled from this varied traffic once and never again from
                    // the real one; without them the cache is CPU-neutral and starts as fast.
                    "INSIKA_ROUTER_JAVA_OPTS", "-XX:AOTCacheOutput=" + cache
                            + " -XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching -XX:-AOTStubCaching"
                            + " -XX:-AOTRecordTraining");
            try (RouterProcess router = RouterProcess.start(home.resolve("bin/insika-router"),
                    javaHome.toString(), env).awaitListening()) {
                train(router.port(), router.adminPort());
                RouterProcess.Result result = router.terminate();
                if (result.exitCode() != 0 || !Files.isRegularFile(cache)) {
                    throw new IllegalStateException("the training run did not write " + cache + " (exit "
                            + result.exitCode() + "):\n" + result.stdout() + result.stderr());
                }
            }
        } finally {
            backends.forEach(WhoAmIBackend::close);
        }
        Files.writeString(id, fingerprint(home, javaHome));
        System.out.println("AOT cache: " + cache + " (" + Files.size(cache) / (1 << 20) + " MiB)");
    }

    /** The fingerprint for a cache built by the JVM running this. */
    static String fingerprint(Path home) throws IOException, InterruptedException {
        return fingerprint(home, Path.of(System.getProperty("java.home")));
    }

    /**
     * The runtime version as {@code bin/insika-router} reads it from the release file of the java
     * home, then {@code cksum} of every jar in lib/ in C-locale order: what the script compares.
     */
    static String fingerprint(Path home, Path javaHome) throws IOException, InterruptedException {
        Process cksum = new ProcessBuilder("sh", "-c", "cd lib && cksum $(LC_ALL=C ls *.jar)")
                .directory(home.toFile()).redirectErrorStream(true).start();
        String sums = new String(cksum.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (cksum.waitFor() != 0) {
            throw new IllegalStateException("cksum failed: " + sums);
        }
        return runtimeVersion(javaHome) + "\n" + sums;
    }

    private static String runtimeVersion(Path javaHome) throws IOException {
        String prefix = "JAVA_RUNTIME_VERSION=\"";
        return Files.readAllLines(javaHome.resolve("release")).stream()
                .filter(line -> line.startsWith(prefix) && line.endsWith("\""))
                .map(line -> line.substring(prefix.length(), line.length() - 1))
                .findFirst().orElse(System.getProperty("java.runtime.version"));
    }

    private static void train(int port, int adminPort) throws IOException, InterruptedException {
        String proxy = "http://127.0.0.1:" + port;
        String admin = "http://127.0.0.1:" + adminPort;
        List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < ROUNDS; i++) {
            String body = "{\"model\":\"m\",\"user\":\"session-" + i + "\",\"input\":\"hello " + i + "\"}";
            requests.add(post(proxy + "/v1/responses", HttpRequest.BodyPublishers.ofString(body)));
            // no length known up front: the client sends it chunked
            requests.add(post(proxy + "/v1/messages", HttpRequest.BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))));
            requests.add(post(proxy + "/channels/c" + i + "/messages",
                    HttpRequest.BodyPublishers.ofString("{\"session_id\":\"s" + i + "\"}")));
            requests.add(post(proxy + "/v1/responses", HttpRequest.BodyPublishers.ofString("{\"user\": ")));
            requests.add(HttpRequest.newBuilder(URI.create(proxy + "/socket.io/?EIO=4&transport=polling&stickyId=s" + i))
                    .build());
            requests.add(HttpRequest.newBuilder(URI.create(proxy + "/models?page=" + i)).build());
            if (i % 10 == 0) {
                for (String path : List.of("/observe/metrics", "/observe/health", "/observe/backends")) {
                    requests.add(HttpRequest.newBuilder(URI.create(admin + path)).build());
                }
            }
        }
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (HttpRequest request : requests) {
                client.send(request, HttpResponse.BodyHandlers.discarding());
            }
        }
    }

    private static HttpRequest post(String uri, HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(URI.create(uri)).header("Content-Type", "application/json").POST(body).build();
    }
}
