package io.insika.router.server.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * A directory laid out as the kubelet mounts a Secret or ConfigMap: each file a symlink to
 * {@code ..data/NAME}, {@code ..data} a symlink to the current generation's directory. An update
 * writes a new generation and swaps {@code ..data} in one rename, so a file's path never changes
 * while its content does, and its modification time is the new directory's.
 */
public final class SecretVolume {

    private final Path root;
    private int generation;

    public SecretVolume(Path root) throws IOException {
        this.root = Files.createDirectories(root);
    }

    /** The path a pod reads a file at. */
    public Path file(String name) {
        return root.resolve(name);
    }

    /** Publishes these contents, as one update of the Secret. */
    public void publish(Map<String, String> files) throws IOException {
        Path next = root.resolve("..gen-" + ++generation);
        Files.createDirectory(next);
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(next.resolve(file.getKey()), file.getValue());
        }
        Path link = root.resolve("..data_tmp");
        Files.createSymbolicLink(link, next.getFileName());
        Files.move(link, root.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
        for (String name : files.keySet()) {
            if (!Files.isSymbolicLink(root.resolve(name))) {
                Files.createSymbolicLink(root.resolve(name), Path.of("..data", name));
            }
        }
    }
}
