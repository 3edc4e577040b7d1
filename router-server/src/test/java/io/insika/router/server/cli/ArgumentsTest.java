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
        assertEquals("unknown argument: --verbose",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("check", "--verbose"))).getMessage());
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
