package io.insika.router.server.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * How one kind of scalar is read from text, and what a valid one is, for the error message.
 *
 * @param expected what a valid value looks like, as the message's {@code (expected: ...)} says
 * @param parser   the value, or empty if the text is not valid
 * @param <T>      the value's type
 */
record ValueType<T>(String expected, Function<String, Optional<T>> parser) {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%\\[\\]-]+");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(?=.{1,253}\\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
                    + "(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?");
    private static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");

    Optional<T> parse(String text) {
        return parser.apply(text.trim());
    }

    static ValueType<Integer> integer(int min, int max, String expected) {
        return new ValueType<>(expected, text -> {
            try {
                int value = Integer.parseInt(text);
                return value >= min && value <= max ? Optional.of(value) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    static ValueType<Integer> listenPort() {
        return integer(0, 65535, "a port from 1 to 65535, or 0 for any free port");
    }

    static ValueType<Integer> backendPort() {
        return integer(1, 65535, "a port from 1 to 65535");
    }

    static ValueType<Integer> positiveSize() {
        return integer(1, Integer.MAX_VALUE, "a whole number of bytes from 1 to " + Integer.MAX_VALUE);
    }

    static ValueType<Duration> positiveDuration() {
        return new ValueType<>("a positive duration: " + DurationText.FORMS,
                text -> DurationText.parse(text).filter(d -> d.isPositive()));
    }

    static ValueType<Duration> durationOrZero() {
        return new ValueType<>("zero or a positive duration: " + DurationText.FORMS,
                text -> DurationText.parse(text).filter(d -> !d.isNegative()));
    }

    /** Comma-separated CIDR blocks or addresses; empty trusts nobody. */
    static ValueType<TrustedProxies> trustedProxies() {
        return new ValueType<>("comma-separated IP addresses or CIDR blocks, such as 10.0.0.0/8, fd00::/8", text -> {
            List<String> entries = Arrays.stream(text.split(",")).map(String::strip).filter(e -> !e.isEmpty()).toList();
            try {
                return Optional.of(TrustedProxies.parse(entries));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        });
    }

    /** Empty for none, or an origin-form path (a query allowed) that can go on a request line as is. */
    static ValueType<String> healthPath() {
        return new ValueType<>("empty (no active checks) or a path starting with /, such as /healthz",
                text -> text.isEmpty() || (text.startsWith("/") && HttpSyntax.isTarget(text))
                        ? Optional.of(text) : Optional.empty());
    }

    static ValueType<Boolean> bool() {
        return new ValueType<>("true or false", text -> switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> Optional.of(Boolean.TRUE);
            case "false" -> Optional.of(Boolean.FALSE);
            default -> Optional.empty();
        });
    }

    static ValueType<LogFormat> logFormat() {
        return new ValueType<>("text or json", LogFormat::parse);
    }

    static ValueType<String> host() {
        return new ValueType<>("a host name or IP address, such as 0.0.0.0",
                text -> HOST.matcher(text).matches() ? Optional.of(text) : Optional.empty());
    }

    static ValueType<String> word() {
        return new ValueType<>("a name", text -> text.isEmpty() ? Optional.empty() : Optional.of(text));
    }

    static ValueType<String> dnsName() {
        return new ValueType<>("a fully qualified DNS name, such as insika-headless.default.svc.cluster.local",
                text -> DNS_NAME.matcher(text).matches() ? Optional.of(text) : Optional.empty());
    }

    /** An IP literal with an optional port (53 when absent): never a name, which would need DNS itself. */
    static ValueType<InetSocketAddress> resolverAddress() {
        return new ValueType<>("an IP address with an optional port, such as 10.96.0.10, 127.0.0.1:5353 or [::1]:53",
                ValueType::socketAddress);
    }

    private static Optional<InetSocketAddress> socketAddress(String text) {
        String host = text;
        String port = "53";
        if (text.startsWith("[") && text.contains("]")) {
            host = text.substring(1, text.indexOf(']'));
            String rest = text.substring(text.indexOf(']') + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return Optional.empty();
                }
                port = rest.substring(1);
            }
        } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
            host = text.substring(0, text.indexOf(':'));
            port = text.substring(text.indexOf(':') + 1);
        }
        Optional<Integer> portNumber = backendPort().parse(port);
        boolean literal = IPV4.matcher(host).matches() || (host.contains(":") && host.matches("[0-9A-Fa-f:.]+"));
        if (portNumber.isEmpty() || !literal) {
            return Optional.empty();
        }
        try {
            // an IP literal: parsed, never looked up
            return Optional.of(new InetSocketAddress(InetAddress.getByName(host), portNumber.get()));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
