package io.insika.router.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What CI runs is the README's test command, word for word, so that a user's run is CI's. */
class QuickStartTest {

    private static final Pattern TEST_COMMAND = Pattern.compile("Run the whole test suite[^\n]*\n\n```sh\n(.+?)\n```",
            Pattern.DOTALL);

    @Test
    void ciRunsExactlyTheReadmesTestCommand() throws IOException {
        Matcher block = TEST_COMMAND.matcher(Files.readString(Path.of("../README.md")));
        assertTrue(block.find(), "README.md has no \"Run the whole test suite\" block");
        List<String> ci = Files.readAllLines(Path.of("../.ci/run")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();

        assertEquals("exec " + block.group(1).strip(), ci.getLast());
    }

    @Test
    void theTestCommandInstallsWhatTheSuiteNeedsBeforeItRunsMaven() throws IOException {
        List<String> script = Files.readAllLines(Path.of("../tools/test.sh")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        int install = indexOf(script, "tools/ci-deps.sh");
        int jdk = indexOf(script, ". tools/jdk.sh");
        int maven = indexOf(script, "./mvnw -B verify");

        assertTrue(install >= 0 && install < jdk && jdk < maven, String.join("\n", script));
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
