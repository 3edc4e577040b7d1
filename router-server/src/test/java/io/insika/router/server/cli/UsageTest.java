package io.insika.router.server.cli;

import org.junit.jupiter.api.Test;

import io.insika.router.server.cli.Invocation.Command;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code insika-router COMMAND --help} prints that command's usage line first. */
class UsageTest {

    @Test
    void eachCommandsUsageBeginsWithItsOwnUsageLine() {
        for (Command command : Command.values()) {
            String usage = Usage.of(command);
            String word = Arguments.word(command);
            assertTrue(usage.startsWith("usage: insika-router " + word) || usage.startsWith("usage: insika-router ["
                    + word + "]"), usage);
            assertTrue(Usage.HELP.contains("insika-router " + word) || Usage.HELP.contains("insika-router [" + word
                    + "]"), "the whole help names " + word);
        }
    }
}
