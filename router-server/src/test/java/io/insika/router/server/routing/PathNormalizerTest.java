package io.insika.router.server.routing;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;

/**
 * The normal form routes match and backends receive: vectors for each rule, the spellings of
 * issue 26, and what is left as sent.
 */
class PathNormalizerTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # a path sent in normal form is kept
            /mcp                  | /mcp
            /                     | /
            /mcp/                 | /mcp/
            /.well-known/x        | /.well-known/x
            /a/...                | /a/...
            /a/.b/c.              | /a/.b/c.
            # the spellings of issue 26
            //mcp                 | /mcp
            /%6dcp                | /mcp
            /%6Dcp                | /mcp
            /./mcp                | /mcp
            /v1/responses/        | /v1/responses/
            /mcp;x                | /mcp;x
            /MCP                  | /MCP
            # unreserved escapes decoded, the rest kept as sent (hex case too)
            /%41%7a%30%2D%2e%5F%7E | /Az0-._~
            /a%2Fb                | /a%2Fb
            /a%2fb                | /a%2fb
            /a%20b/%E2%82%AC      | /a%20b/%E2%82%AC
            /a%3Bx                | /a%3Bx
            /a%25                 | /a%25
            # a % that begins no escape is data, written as one, so no decoding makes an escape of it
            /a%                   | /a%25
            /a%4                  | /a%254
            /a%zz                 | /a%25zz
            /%%41                 | /%25A
            /%%36dcp              | /%256dcp
            # repeated slashes: one; an empty segment is not a segment
            /a//b                 | /a/b
            ///a///b///           | /a/b/
            //                    | /
            /a//../b              | /b
            # dot segments, RFC 3986 5.2.4 (and 5.4's examples)
            /a/b/c/./../../g      | /a/g
            /a/./b                | /a/b
            /a/b/..               | /a/
            /a/b/.                | /a/b/
            /a/./                 | /a/
            /..                   | /
            /../mcp               | /mcp
            /../../mcp/..         | /
            /mcp/x/..             | /mcp/
            /x/../mcp             | /mcp
            /.;/mcp               | /.;/mcp
            # dots spelled as escapes are dots
            /%2e/mcp              | /mcp
            /a/%2E%2e/mcp         | /mcp
            /a/.%2e/mcp           | /mcp
            # not a path: kept
            *                     | *
            """)
    void normalizes(String raw, String normal) {
        assertThat(PathNormalizer.normalize(raw), is(normal));
    }

    @ParameterizedTest
    @CsvSource({"/channels/42/messages", "/studio/a%2Fb%20c/%E2%82%AC", "/mcp/"})
    void aPathAlreadyNormalIsReturnedAsTheSameString(String path) {
        assertThat(PathNormalizer.normalize(path), is(sameInstance(path)));
    }

    @Test
    void theNormalFormIsNormal() {
        Random random = new Random(26);
        String alphabet = "/./%2e56dM;~";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder raw = new StringBuilder("/");
            for (int n = random.nextInt(12); n > 0; n--) {
                raw.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String once = PathNormalizer.normalize(raw.toString());

            assertThat(raw.toString(), PathNormalizer.normalize(once), is(once));
            assertThat(raw.toString(), PathNormalizer.isNormal(once), is(true));
            assertThat(raw.toString(), once.startsWith("/"), is(true));
        }
    }
}
