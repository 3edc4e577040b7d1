package io.insika.router.server.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.insika.router.server.cli.Invocation.Command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ArgumentsTest {

    @Test
    void noArgumentsServesWithTheDefaultConfiguration() {
        Invocation invocation = Arguments.parse(List.of());

        assertEquals(Command.SERVE, invocation.command());
        assertEquals(Optional.empty(), invocation.config());
    }

    @Test
    void routeTakesItsKeyAndAConfigFileInAnyOrder() {
        Invocation invocation = Arguments.parse(List.of("route", "--config", "my.yaml", "alice"));

        assertEquals(Command.ROUTE, invocation.command());
        assertEquals(Optional.of("alice"), invocation.key());
        assertEquals(Optional.of(Path.of("my.yaml")), invocation.config());
    }

    @Test
    void checkTakesTheAdminUrlOfARunningRouterAndNothingElseDoes() {
        assertEquals(Optional.of(java.net.URI.create("http://10.0.0.5:9091")),
                Arguments.parse(List.of("check", "--against", "http://10.0.0.5:9091")).against());
        assertEquals("--against: [10.0.0.5:9091] (expected: a running router's admin URL, such as http://10.0.0.5:9091)",
                assertThrows(UsageException.class,
                        () -> Arguments.parse(List.of("check", "--against", "10.0.0.5:9091"))).getMessage());
        assertEquals("--against is an option of check", assertThrows(UsageException.class,
                () -> Arguments.parse(List.of("route", "alice", "--against", "http://10.0.0.5:9091"))).getMessage());
    }

    @Test
    void demoTakesAPort() {
        assertEquals(9190, Arguments.parse(List.of("demo", "--port", "9190")).port().getAsInt());
    }

    @Test
    void routeWithoutAKeyIsAUsageError() {
        assertEquals("route needs the session KEY to look up",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("route"))).getMessage());
    }

    @Test
    void unknownCommandsAndOptionsAreUsageErrorsNamingThem() {
        assertEquals("unknown command: serv",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("serv"))).getMessage());
        assertEquals("unknown option: --frobnicate",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("check", "--frobnicate"))).getMessage());
        assertEquals("unknown argument: extra",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("route", "alice", "extra"))).getMessage());
    }

    @Test
    void anOptionsValueMayBeJoinedToItWithAnEqualsSign() {
        Invocation check = Arguments.parse(List.of("check", "--config=my.yaml", "--against=http://10.0.0.5:9091"));
        Invocation token = Arguments.parse(List.of("token", "--hmac", "--secret-file=/run/secret", "actor-1"));

        assertEquals(Optional.of(Path.of("my.yaml")), check.config());
        assertEquals(Optional.of(java.net.URI.create("http://10.0.0.5:9091")), check.against());
        assertEquals(Optional.of(Path.of("/run/secret")), token.secret());
        assertEquals(9190, Arguments.parse(List.of("demo", "--port=9190")).port().getAsInt());
        assertEquals(Optional.of(Path.of("a=b.yaml")), Arguments.parse(List.of("--config=a=b.yaml")).config());
    }

    @Test
    void aFlagGivenAValueOrAnOptionAnEmptyOneIsAUsageError() {
        assertEquals("--hmac takes no value", assertThrows(UsageException.class,
                () -> Arguments.parse(List.of("token", "--hmac=yes", "k"))).getMessage());
        assertEquals("--config needs a value", assertThrows(UsageException.class,
                () -> Arguments.parse(List.of("check", "--config="))).getMessage());
    }

    @Test
    void doubleDashEndsTheOptionsSoAKeyMayBeginWithADash() {
        Invocation dashed = Arguments.parse(List.of("route", "--config", "my.yaml", "--", "-abc"));
        Invocation help = Arguments.parse(List.of("route", "--", "--help"));

        assertEquals(Command.ROUTE, dashed.command());
        assertEquals(Optional.of("-abc"), dashed.key());
        assertEquals(Optional.of(Path.of("my.yaml")), dashed.config());
        assertEquals(Command.ROUTE, help.command());
        assertEquals(Optional.of("--help"), help.key());
        assertEquals(Optional.of("-"), Arguments.parse(List.of("token", "-")).key());
    }

    @Test
    void aKeyBeginningWithADashBeforeTheDoubleDashIsAnUnknownOptionThatSaysHowToRouteIt() {
        assertEquals("unknown option: -abc (a KEY that begins with - goes after --: insika-router route -- -abc)",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("route", "-abc"))).getMessage());
    }

    @Test
    void everyCommandTakesHelpAndNeedsNothingElseForIt() {
        for (Command command : Command.values()) {
            String word = Arguments.word(command);
            assertEquals(Optional.of(command), Arguments.parse(List.of(word, "--help")).topic(), word);
            assertEquals(Optional.of(command), Arguments.parse(List.of(word, "-h")).topic(), word);
            assertEquals(Optional.of(command), Arguments.parse(List.of("help", word)).topic(), word);
            assertEquals(Command.HELP, Arguments.parse(List.of(word, "--help")).command(), word);
        }
        assertEquals(Optional.of(Command.ROUTE), Arguments.parse(List.of("route", "--frobnicate", "--help")).topic());
        assertEquals(Optional.empty(), Arguments.parse(List.of("--help")).topic());
        assertEquals(Optional.empty(), Arguments.parse(List.of("help")).topic());
        assertEquals("unknown command: rout",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("help", "rout"))).getMessage());
    }

    @Test
    void versionIsACommandAndTwoOptions() {
        for (List<String> asked : List.of(List.of("version"), List.of("--version"), List.of("-V"))) {
            assertEquals(Command.VERSION, Arguments.parse(asked).command(), asked.toString());
        }
    }

    @Test
    void verboseIsAnOptionOfRouteAndCheck() {
        assertEquals(true, Arguments.parse(List.of("route", "--verbose", "alice")).verbose());
        assertEquals(true, Arguments.parse(List.of("check", "-v")).verbose());
        assertEquals(false, Arguments.parse(List.of("route", "alice")).verbose());
        assertEquals("--verbose is an option of route and check; a running router logs at logging.level",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("--verbose"))).getMessage());
    }

    @Test
    void optionWithoutItsValueIsAUsageError() {
        assertEquals("--config needs a value",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("check", "--config"))).getMessage());
    }

    @Test
    void portOutOfRangeIsAUsageError() {
        assertEquals("--port: [70000] (expected: 0 to 65535)",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("demo", "--port", "70000")))
                        .getMessage());
    }
}
