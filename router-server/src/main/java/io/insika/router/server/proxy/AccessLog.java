package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * One line per proxied request, in logfmt, to the logger {@value #LOGGER_NAME} at INFO:
 * <pre>
 * client=10.0.0.9:53422 method=POST path=/v1/responses status=200 bytes=1234 ms=12.41
 *   backend=10.0.0.5:9292 placement=key key=#a1b2c3d4e5f6 error=-
 * </pre>
 * The session key appears only as a digest, and the query string not at all: both may carry
 * what a log should not (seed 004). Values a client controls are quoted and escaped, so a
 * crafted path cannot forge a second line or a field.
 */
final class AccessLog {

    /** Send it elsewhere, or silence it, in logging.properties. */
    static final String LOGGER_NAME = "insika.access";
    private static final System.Logger LOGGER = System.getLogger(LOGGER_NAME);

    private final boolean enabled;

    AccessLog(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Logs a finished (or abandoned) request.
     *
     * @param placed  where it went, or {@code null} if it failed before it was placed
     * @param error   the failure's label, or {@code null}
     * @param started {@link System#nanoTime()} when it arrived
     */
    void log(ServerRequest request, ServerResponse response, Placed placed, String error, long started) {
        if (!enabled || !LOGGER.isLoggable(Level.INFO)) {
            return;
        }
        long micros = (System.nanoTime() - started) / 1_000;
        StringBuilder line = new StringBuilder(192);
        line.append("client=").append(client(request.remotePeer().address()));
        line.append(" method=");
        value(line, request.prologue().method().text());
        line.append(" path=");
        value(line, request.prologue().uriPath().rawPath());
        line.append(" status=").append(response.status().code());
        line.append(" bytes=").append(response.bytesWritten());
        long fraction = micros % 1_000;
        line.append(" ms=").append(micros / 1_000).append(fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".")
                .append(fraction);
        line.append(" backend=").append(placed == null || placed.backend() == null ? "-" : placed.backend().id());
        line.append(" placement=").append(placed == null ? "-" : placed.how().label());
        line.append(" key=").append(placed == null || placed.key() == null ? "-" : SessionKeyDigest.of(placed.key()));
        line.append(" error=").append(error == null ? "-" : error);
        LOGGER.log(Level.INFO, line.toString());
    }

    private static String client(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    // logfmt: bare when it can be, else quoted with \" \\ and control characters escaped
    static void value(StringBuilder line, String value) {
        boolean bare = !value.isEmpty();
        for (int i = 0; i < value.length() && bare; i++) {
            char c = value.charAt(i);
            bare = c > ' ' && c < 0x7f && c != '"' && c != '=' && c != '\\';
        }
        if (bare) {
            line.append(value);
            return;
        }
        line.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < ' ' || c == 0x7f) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        line.append('"');
    }
}
