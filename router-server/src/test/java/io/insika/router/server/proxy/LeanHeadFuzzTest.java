package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.uri.UriValidator;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Http1HeadersParser;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.http1.Http1Prologue;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Whatever bytes a client sends, a head the lean connection takes is one Helidon's own HTTP/1
 * parser (its prologue reader and header parser, validation on, as the router's listener runs
 * them) also takes, read to the same method, target, fields and length. So taking a request
 * never lets through what Helidon would have refused, nor reads it another way. Helidon refuses
 * every HTTP/1.0 head, so an HTTP/1.0 head is compared as the same bytes on HTTP/1.1, with the
 * {@code Host} the router gives one that has none, and without the {@code Upgrade},
 * {@code Expect} and {@code HTTP2-Settings} it drops from one. And every head it takes passes
 * {@link ClientHeadCheck}, which the proxy therefore skips for it.
 */
class LeanHeadFuzzTest {

    private static final byte[] END = {'\r', '\n', '\r', '\n'};

    @FuzzTest
    void aHeadTheRouterTakesHelidonReadsAlike(byte[] data) {
        byte[] head = headOf(data);
        LeanHead lean = LeanHead.parse(head, head.length, "/up", () -> "127.0.0.1:9090");
        if (lean == null) {
            return; // Helidon's to read, whatever it makes of it
        }
        assertThat("the proxy does not check again a head the router takes: it must pass the check",
                ClientHeadCheck.forwardable(RequestTarget.of(lean.prologue()), lean.headers()), is(true));
        List<String> synthesized = new ArrayList<>();
        if (lean.http10()) {
            head = asHttp11(head);
            if (!hasHost(head)) {
                synthesized.add("host: 127.0.0.1:9090");
            }
        }
        byte[][] once = {head};
        DataReader reader = DataReader.create(() -> {
            byte[] next = once[0];
            once[0] = null;
            return next;
        });
        HttpPrologue prologue = new Http1Prologue(reader, 8192, true).readPrologue();
        UriValidator.validateQuery(prologue.query().rawValue());
        WritableHeaders<?> headers = Http1HeadersParser.readHeaders(reader, 16384, true);

        assertThat(lean.prologue().method(), is(prologue.method()));
        assertThat(lean.prologue().uriPath().rawPath(), is(prologue.uriPath().rawPath()));
        assertThat(lean.prologue().query().rawValue(), is(prologue.query().rawValue()));
        List<String> expected = fields(headers);
        if (lean.http10()) { // HTTP/1.0 has no upgrade and no 100-continue: the router drops them
            expected.removeIf(f -> f.startsWith("upgrade: ") || f.startsWith("expect: ")
                    || f.startsWith("http2-settings: "));
        }
        expected.addAll(synthesized);
        // the order of fields of different names carries no meaning (RFC 9110 5.3), and Helidon's
        // headers do not keep it; the order of one name's values does
        assertThat(byName(fields(lean.headers())), is(byName(expected)));
        boolean chunked = headers.contains(HeaderNames.TRANSFER_ENCODING);
        assertThat(lean.contentLength(), is(chunked ? -1L : headers.contentLength().orElse(0)));
        if (chunked) {
            // a transfer coding's name is case-insensitive (RFC 9112 7): both read "chunKed" as chunked
            assertThat(headers.get(HeaderNames.TRANSFER_ENCODING).allValues().stream()
                    .map(value -> value.toLowerCase(java.util.Locale.ROOT)).toList(), is(List.of("chunked")));
            assertThat(headers.contains(HeaderNames.CONTENT_LENGTH), is(false));
        }
        // exactly one Host is forwarded: the client's, or the one given an HTTP/1.0 head without
        assertThat(lean.headers().all(HeaderNames.HOST, List::of).size(), is(1));
    }

    // The same head with HTTP/1.1 in its request line
    private static byte[] asHttp11(byte[] head) {
        byte[] copy = head.clone();
        for (int i = 0; i + 1 < copy.length; i++) {
            if (copy[i] == '\r' && copy[i + 1] == '\n') {
                copy[i - 1] = '1';
                return copy;
            }
        }
        throw new IllegalStateException("no request line");
    }

    private static boolean hasHost(byte[] head) {
        return new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT)
                .contains("\r\nhost:");
    }

    // The bytes up to their first empty line, or all of them with one added
    private static byte[] headOf(byte[] data) {
        for (int i = 0; i + END.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + END.length, END, 0, END.length)) {
                return Arrays.copyOf(data, i + END.length);
            }
        }
        byte[] head = Arrays.copyOf(data, data.length + END.length);
        System.arraycopy(END, 0, head, data.length, END.length);
        return head;
    }

    // Stable: the values of one name keep their order
    private static List<String> byName(List<String> fields) {
        List<String> sorted = new ArrayList<>(fields);
        sorted.sort(java.util.Comparator.comparing(field -> field.substring(0, field.indexOf(':'))));
        return sorted;
    }

    private static List<String> fields(io.helidon.http.Headers headers) {
        List<String> fields = new ArrayList<>();
        for (Header header : headers) {
            for (String value : header.allValues()) {
                fields.add(header.headerName().lowerCase() + ": " + value);
            }
        }
        return fields;
    }
}
