package io.insika.router.server.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/configuration.md's table of every key is the one {@link Settings} makes: a key added,
 * renamed or given another default there fails this test until the docs say the same.
 */
class SettingsReferenceTest {

    static final String BEGIN = "<!-- made from Settings.java by SettingsReferenceTest: edit Settings, then paste"
            + " the table the test prints -->\n";
    static final String END = "<!-- end of the table made from Settings.java -->\n";

    private static final Path DOCS = Path.of("../docs/configuration.md");

    @Test
    void theDocsTableOfEveryKeyIsTheOneTheSettingsTableMakes() throws Exception {
        String docs = Files.readString(DOCS);
        int begin = docs.indexOf(BEGIN);
        int end = docs.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/configuration.md has no table between " + BEGIN + " and " + END);
        String documented = docs.substring(begin + BEGIN.length(), end);

        assertEquals(markdown(), documented, "docs/configuration.md's key table is stale; put this between the"
                + " markers:\n" + markdown());
    }

    /** The table: one row per key, in the order {@code check} prints them. */
    static String markdown() {
        StringBuilder table = new StringBuilder("""
                | Key | Variable | Default | Reload | Meaning |
                | --- | --- | --- | --- | --- |
                """);
        for (ConfigKey key : Settings.all()) {
            table.append("| `").append(key.key()).append("` | ")
                    .append(key.variable().map(variable -> "`" + variable + "`").orElse("—")).append(" | ")
                    .append(key.defaultText()).append(" | ")
                    .append(reload(key.reload())).append(" | ")
                    .append(key.doc()).append(" |\n");
        }
        return table.toString();
    }

    private static String reload(Reload reload) {
        return switch (reload) {
            case LIVE -> "yes";
            case OPT_IN -> "with `" + Settings.STRATEGY_CHANGE_ON_RELOAD.key() + "`";
            case WHILE_ON -> "yes, not on or off";
            case RESTART -> "restart";
        };
    }
}
