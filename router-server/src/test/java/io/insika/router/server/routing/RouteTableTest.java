package io.insika.router.server.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;

/**
 * Which route a request path places on, by its normal form: the seed's table and an MCP route
 * that learns its key, against the spellings a client (or an attacker) may send.
 */
class RouteTableTest {

    private static final RouteTable TABLE = table();

    private static RouteTable table() {
        List<RouteSpec> specs = new ArrayList<>(DefaultRoutes.specs());
        specs.add(RouteSpec.learning(Set.of(), "/mcp", LearnSpec.header("Mcp-Session-Id")));
        specs.add(RouteSpec.learning(Set.of(), "/app/", LearnSpec.cookie("SESSIONID")));
        return RouteTable.build(specs, FixturePlugins.builtIn());
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            POST | /v1/responses              | /v1/responses
            POST | /v1/responses/             | /v1/responses
            POST | //v1/responses             | /v1/responses
            POST | /v1//responses             | /v1/responses
            POST | /./v1/responses            | /v1/responses
            POST | /v1/x/../responses         | /v1/responses
            POST | /%76%31/%72esponses        | /v1/responses
            POST | /v1/responses/.            | /v1/responses
            POST | /v1/responses/x/..         | /v1/responses
            POST | /v1/responses/x            | -
            POST | /v1/responses;x            | -
            POST | /V1/Responses              | -
            POST | /v1%2Fresponses            | -
            GET  | /v1/responses              | -
            POST | /channels/a%20b/messages/  | /channels/{id}/messages
            POST | /channels//messages        | -
            POST | /channels/x/../messages    | -
            GET  | /socket.io                 | /socket.io/*
            GET  | /socket.io/                | /socket.io/*
            GET  | //socket.io//x             | /socket.io/*
            GET  | /mcp                       | /mcp
            GET  | /mcp/                      | /mcp
            GET  | //mcp                      | /mcp
            GET  | /%6dcp                     | /mcp
            GET  | /%6Dcp                     | /mcp
            GET  | /./mcp                     | /mcp
            GET  | /../mcp                    | /mcp
            GET  | /mcp;x                     | -
            GET  | /MCP                       | -
            GET  | /app                       | /app/
            GET  | /app/                      | /app/
            GET  | /app//                     | /app/
            """)
    void aPathPlacesOnTheRouteItsNormalFormMatches(String method, String raw, String route) {
        String matched = TABLE.match(method, PathNormalizer.normalize(raw)).map(it -> it.route().template().toString())
                .orElse("-");

        assertThat(matched, is(route));
    }

    @Test
    void aCarrierTwoRoutesLearnIsOneCarrierOfTheTable() {
        RouteTable table = RouteTable.build(List.of(
                RouteSpec.learning(Set.of(), "/mcp", LearnSpec.header("Mcp-Session-Id")),
                RouteSpec.learning(Set.of(), "/v2/mcp", LearnSpec.header("mcp-session-id")),
                RouteSpec.learning(Set.of(), "/app", LearnSpec.cookie("SESSIONID"))), FixturePlugins.builtIn());

        assertThat(table.learnedCarriers(), contains(LearnSpec.header("Mcp-Session-Id"), LearnSpec.cookie("SESSIONID")));
    }
}
