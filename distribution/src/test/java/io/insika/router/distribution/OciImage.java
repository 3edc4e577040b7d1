package io.insika.router.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.yaml.snakeyaml.Yaml;

/**
 * The container image the build wrote, {@code target/insika-router-<version>-image.tar} (an OCI
 * image layout in a tar), read the way a container runtime reads one: {@code index.json} names
 * the manifest, the manifest names the configuration and the layers, each a blob under
 * {@code blobs/sha256/} that must hash to its name; the layers unpacked in order are the root
 * file system. Whiteout files are not applied: the image has one layer, and a test says so.
 * JSON is read with SnakeYAML (JSON is YAML).
 */
final class OciImage {

    static final Path ARCHIVE = Path.of(System.getProperty("insika.image"));

    private final Path layout;
    private final Map<String, Object> index;
    private final Map<String, Object> manifest;
    private final Map<String, Object> config;

    private OciImage(Path layout) {
        this.layout = layout;
        this.index = json(layout.resolve("index.json"));
        this.manifest = json(blob(map(list(index.get("manifests")).getFirst()).get("digest")));
        this.config = json(blob(map(manifest.get("config")).get("digest")));
    }

    /** Unpacks the archive into a fresh directory; fails with what to do when the build made none. */
    static OciImage unpack(Path dir) {
        if (!Files.isRegularFile(ARCHIVE)) {
            throw new AssertionError("no image at " + ARCHIVE + ": the build skips it when umoci is missing"
                    + " (its log says why); install it, e.g. with tools/ci-deps.sh");
        }
        Path layout = dir.resolve("layout");
        run("tar", "xf", ARCHIVE.toString(), "-C", mkdirs(layout).toString());
        return new OciImage(layout);
    }

    /** The image's reference name, {@code insika-router:<version>}. */
    String refName() {
        return (String) map(map(list(index.get("manifests")).getFirst()).get("annotations"))
                .get("org.opencontainers.image.ref.name");
    }

    int manifestCount() {
        return list(index.get("manifests")).size();
    }

    /** The configuration a runtime starts a container with: User, Env, Entrypoint, ExposedPorts, ... */
    Map<String, Object> runConfig() {
        return map(config.get("config"));
    }

    String os() {
        return (String) config.get("os");
    }

    List<String> layerMediaTypes() {
        return layers().stream().map(layer -> (String) layer.get("mediaType")).toList();
    }

    /** The image's environment as a map, from its {@code KEY=value} list. */
    Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (Object variable : list(runConfig().get("Env"))) {
            String[] pair = ((String) variable).split("=", 2);
            environment.put(pair[0], pair[1]);
        }
        return environment;
    }

    /** Unpacks the layers in order into {@code rootfs}, each after checking it hashes to its digest. */
    Path unpackRootfs(Path rootfs) {
        mkdirs(rootfs);
        for (Map<String, Object> layer : layers()) {
            String mediaType = (String) layer.get("mediaType");
            String flags = mediaType.endsWith("+gzip") ? "xzf" : "xf";
            run("tar", flags, blob(layer.get("digest")).toString(), "-C", rootfs.toString(), "--numeric-owner");
        }
        return rootfs;
    }

    private List<Map<String, Object>> layers() {
        List<Map<String, Object>> layers = new ArrayList<>();
        list(manifest.get("layers")).forEach(layer -> layers.add(map(layer)));
        return layers;
    }

    private Path blob(Object digest) {
        String[] parts = ((String) digest).split(":", 2);
        Path blob = layout.resolve("blobs").resolve(parts[0]).resolve(parts[1]);
        if (!sha256(blob).equals(parts[1])) {
            throw new AssertionError(blob + " does not hash to its name");
        }
        return blob;
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> json(Path file) {
        try {
            return map(new Yaml().load(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Deletes a directory tree; symbolic links are deleted, never followed. */
    static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node) {
        return (List<Object>) node;
    }
}
