package io.insika.router.server.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the scratch directories tests make, so runs do not pile them up in the temp dir. */
public final class TempTrees {

    private TempTrees() {
    }

    /** Deletes the directory and everything under it; what cannot be deleted is left behind. */
    public static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is all that is lost
        }
    }
}
