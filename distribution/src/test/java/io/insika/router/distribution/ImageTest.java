package io.insika.router.distribution;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The OCI image the build makes, taken as a user's container runtime takes it: the archive's
 * layout read through its index, manifest and configuration, the layer unpacked, and the
 * entrypoint run in it as the image's user on a read-only root (see {@link ImageContainer}).
 */
class ImageTest {

    static final Path MODULES = Path.of("src/image/modules");
    private static final Path DEPLOYMENT = Path.of("../docs/deploy/router-deployment.yaml");
    private static final List<WhoAmIBackend> BACKENDS = List.of(new WhoAmIBackend("backend-a"),
            new WhoAmIBackend("backend-b"));
    private static Path dir;
    private static OciImage image;
    private static Path rootfs;

    @BeforeAll
    static void unpack() throws IOException {
        dir = Files.createTempDirectory(Files.createDirectories(UnpackedDistribution.WORK), "image-");
        image = OciImage.unpack(dir);
        rootfs = image.unpackRootfs(dir.resolve("rootfs"));
    }

    @AfterAll
    static void cleanUp() throws IOException {
        BACKENDS.forEach(WhoAmIBackend::close);
        OciImage.delete(dir); // ~130 MiB: not left behind in target/ by every run
    }

    @Test
    void theImageIsNamedForThisVersionAndHoldsOneLinuxLayer() {
        assertEquals("insika-router:" + UnpackedDistribution.VERSION, image.refName());
        assertEquals(1, image.manifestCount());
        assertEquals("linux", image.os());
        assertEquals(List.of("application/vnd.oci.image.layer.v1.tar+gzip"), image.layerMediaTypes());
    }

    @Test
    void itRunsBinInsikaRouterAsANonRootUserWithBothPortsExposed() throws IOException {
        Map<String, Object> config = image.runConfig();

        assertEquals(List.of("/opt/insika-router/bin/insika-router"), config.get("Entrypoint"));
        assertEquals("/opt/insika-router", config.get("WorkingDir"));
        assertEquals(Set.of("9090/tcp", "9091/tcp"), OciImage.map(config.get("ExposedPorts")).keySet());
        assertEquals("/opt/java", image.environment().get("JAVA_HOME"));
        String user = (String) config.get("User");
        assertTrue(user.matches("[1-9][0-9]*:[1-9][0-9]*"), "a numeric non-root uid:gid, so runAsNonRoot can check it: " + user);
        assertTrue(Files.readAllLines(rootfs.resolve("etc/passwd")).stream()
                .anyMatch(line -> line.matches("[a-z]+:x:" + user + ":.*")), "the user has a name in /etc/passwd");
        assertEquals("http://127.0.0.1:9091/observe/health/ready",
                OciImage.map(config.get("Labels")).get("io.insika.router.health.ready"));
    }

    @Test
    void theKubernetesManifestRunsThisImageAsItsUser() throws IOException {
        Map<String, Object> deployment = OciImage.map(new Yaml().load(Files.readString(DEPLOYMENT)));
        Map<String, Object> podSpec = OciImage.map(OciImage.map(OciImage.map(deployment.get("spec")).get("template")).get("spec"));
        Map<String, Object> container = OciImage.map(OciImage.list(podSpec.get("containers")).getFirst());
        Map<String, Object> security = OciImage.map(container.get("securityContext"));

        assertEquals(image.refName(), container.get("image"));
        assertEquals(image.runConfig().get("User"), security.get("runAsUser") + ":" + security.get("runAsGroup"));
        assertEquals(true, security.get("readOnlyRootFilesystem"), "as the router runs here");
    }

    @Test
    void theRuntimeIsJlinkedWithTheListedModulesAndNoJdkTools() throws IOException {
        Path java = rootfs.resolve("opt/java");
        List<String> listed = Files.readAllLines(MODULES).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        String release = Files.readString(java.resolve("release"));

        // jlink adds what the listed modules require (java.management brings java.security.sasl)
        assertTrue(Set.of(release.replaceAll("(?s).*MODULES=\"([^\"]*)\".*", "$1").split(" ")).containsAll(listed), release);
        assertFalse(release.contains("java.desktop"), release);
        assertEquals(Set.of("java", "keytool"), names(java.resolve("bin")));
        assertFalse(Files.exists(java.resolve("jmods")));
        assertEquals(Set.of("cksum", "ls", "readlink", "sh"), names(rootfs.resolve("bin")), "no tools beyond the script's");
    }

    @Test
    void theImagesNoticeIsTheTarballsAndNamesThePackageOfEveryFileCopiedFromTheBuildMachine() throws IOException {
        String notice = Files.readString(rootfs.resolve("opt/insika-router/NOTICE"));
        String tarballs = Files.readString(UnpackedDistribution.unpack().home().resolve("NOTICE"));
        List<String> copied;
        try (Stream<Path> files = Stream.of("bin", "lib", "lib64", "usr/lib", "usr/lib64").map(rootfs::resolve)
                .filter(Files::isDirectory).flatMap(ImageTest::walk)) {
            copied = files.filter(Files::isRegularFile).map(f -> "/" + rootfs.relativize(f)).sorted().toList();
        }

        assertTrue(notice.startsWith(tarballs), "the image's NOTICE begins with the tarball's");
        List<String> lines = notice.substring(tarballs.length()).lines().toList();
        assertTrue(copied.contains("/bin/sh") && copied.stream().anyMatch(f -> f.contains("/libc.so")), copied.toString());
        for (String file : copied) {
            String line = lines.stream().filter(l -> l.startsWith(file + "  ")).findFirst()
                    .orElseThrow(() -> new AssertionError(file + " is not in the image's NOTICE"));
            String copyright = line.replaceAll(".*: (/usr/share/doc/[^ ]+/copyright)$", "$1");
            assertTrue(Files.isRegularFile(rootfs.resolve(copyright.substring(1))), line);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("/opt/java  ")), "the runtime is named");
        assertTrue(Files.isDirectory(rootfs.resolve("opt/java/legal/java.base")), "the runtime's own notices");
    }

    private static Stream<Path> walk(Path dir) {
        try {
            return Files.walk(dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theImageIsSmall() throws Exception {
        long archive = Files.size(OciImage.ARCHIVE);
        long unpacked;
        try (Stream<Path> files = Files.walk(rootfs)) {
            unpacked = files.filter(Files::isRegularFile).mapToLong(ImageTest::size).sum();
        }
        ServeTest.report("image: " + (archive >> 20) + " MiB as built (gzip), " + (unpacked >> 20) + " MiB unpacked, "
                + (size(rootfs.resolve("opt/insika-router/lib/insika-router.aot")) >> 20) + " MiB of it the AOT cache");
        // a full JDK alone would be ~300 MiB unpacked
        assertTrue(archive < 64L << 20, "image of " + (archive >> 20) + " MiB");
    }

    @Test
    void insideTheImageOnAReadOnlyRootTheRouterProxiesAKeyedRequestAndIsReady() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "entering the image takes root (unshare, chroot)");
        // where router-deployment.yaml mounts its ConfigMap
        Path config = Files.createDirectories(rootfs.resolve("etc/insika-router")).resolve("insika-router.yaml");
        Files.writeString(config, """
                server: { host: 127.0.0.1, port: 0, admin-port: 0 }
                backends:
                  static: [%s]
                """.formatted(BACKENDS.stream().map(b -> b.uri().toString()).collect(Collectors.joining(", "))));

        try (RouterProcess router = ImageContainer.start(image, rootfs,
                Map.of("INSIKA_ROUTER_CONFIG", "/etc/insika-router/insika-router.yaml")).awaitListening()) {
            String owner = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"alice\"}").body();
            String again = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"alice\"}").body();
            HttpResponse<String> ready = Http.get(router.adminPort(), "/observe/health/ready", Map.of());
            RouterProcess.Result stopped = router.terminate();

            assertTrue(owner.startsWith("backend-"), owner);
            assertEquals(owner, again);
            assertEquals(200, ready.statusCode(), ready.body());
            assertEquals(0, stopped.exitCode(), stopped.stderr());
            assertTrue(stopped.stderr().contains("start-up cache lib/insika-router.aot: in use"), stopped.stderr());
            assertEquals("", stopped.stdout(), "no JVM warnings (a read-only /tmp included)");
        }
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
