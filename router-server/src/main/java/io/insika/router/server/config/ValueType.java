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

import io.insika.router.api.Backend;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.logging.LogLevel;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * How one kind of scalar is read from text, and what a valid one is, for the error message.
 *
 * @param expected what a valid value looks like, as the message's {@code (expected: ...)} says
 * @param parser   the value, or empty if the text is not valid
 * @param printer  a value as text the parser reads back, so a default can be shown in the docs
 *                 and compared with what a YAML file states
 * @param <T>      the value's type
 */
record ValueType<T>(String expected, Function<String, Optional<T>> parser, Function<T, String> printer) {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:%\\[\\]-]+");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(?=.{1,253}\\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
                    + "(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?");
    private static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");

    /** A type whose values print as {@link String#valueOf(Object)} does: numbers, booleans, text. */
    ValueType(String expected, Function<String, Optional<T>> parser) {
        this(expected, parser, String::valueOf);
    }

    Optional<T> parse(String text) {
        return parser.apply(text.trim());
    }

    String print(T value) {
        return printer.apply(value);
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

    /**
     * A number of bytes ({@link SizeText}) from {@code min} to {@link Integer#MAX_VALUE}; printed
     * as plain bytes, so what {@code /observe/config} reports compares equal across versions.
     *
     * @param what what is counted, such as {@code bytes} or {@code bytes a second}
     */
    static ValueType<Integer> size(int min, String what) {
        return new ValueType<>("a whole number of " + what + " from " + min + " to " + Integer.MAX_VALUE + ": "
                + SizeText.FORMS, text -> {
                    java.util.OptionalLong bytes = SizeText.parse(text);
                    return bytes.isPresent() && bytes.getAsLong() >= min && bytes.getAsLong() <= Integer.MAX_VALUE
                            ? Optional.of((int) bytes.getAsLong()) : Optional.empty();
                });
    }

    /** Request or tunnel slots of a backend; 0 is no limit. */
    static ValueType<Integer> slots() {
        return integer(0, 1_000_000, "a whole number from 0 (no limit) to 1000000");
    }

    static ValueType<Duration> positiveDuration() {
        return new ValueType<>("a positive duration: " + DurationText.FORMS,
                text -> DurationText.parse(text).filter(d -> d.isPositive()), DurationText::format);
    }

    static ValueType<Duration> durationOrZero() {
        return new ValueType<>("zero or a positive duration: " + DurationText.FORMS,
                text -> DurationText.parse(text).filter(d -> !d.isNegative()), DurationText::format);
    }

    /** A value that may be left out: absent unless written, and then it must be valid. */
    static <T> ValueType<Optional<T>> optional(ValueType<T> type) {
        return new ValueType<>(type.expected(), text -> type.parse(text).map(Optional::of),
                value -> value.map(type::print).orElse(""));
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
        }, proxies -> String.join(", ", proxies.entries()));
    }

    /** Empty for none, or an origin-form path (a query allowed) that can go on a request line as is. */
    static ValueType<String> healthPath() {
        return new ValueType<>("empty (no active checks) or a path starting with /, such as /healthz",
                text -> text.isEmpty() || (text.startsWith("/") && HttpSyntax.isTarget(text))
                        ? Optional.of(text) : Optional.empty());
    }

    /** A file's path, read when the configuration is; empty for none. */
    static ValueType<String> path() {
        return new ValueType<>("the path of a file", Optional::of);
    }

    static ValueType<Boolean> bool() {
        return new ValueType<>("true or false", text -> switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> Optional.of(Boolean.TRUE);
            case "false" -> Optional.of(Boolean.FALSE);
            default -> Optional.empty();
        });
    }

    static ValueType<LogFormat> logFormat() {
        return new ValueType<>("text or json", LogFormat::parse, LogFormat::label);
    }

    static ValueType<LogLevel> logLevel() {
        return new ValueType<>("debug, info, warn or error", LogLevel::parse, LogLevel::label);
    }

    static ValueType<String> host() {
        return new ValueType<>("a host name or IP address, such as 0.0.0.0",
                text -> HOST.matcher(text).matches() ? Optional.of(text) : Optional.empty());
    }

    /** Empty for the proxy's host ({@code server.host}), or a host. */
    static ValueType<String> hostOrEmpty() {
        return new ValueType<>("empty (server.host's) or a host name or IP address, such as 127.0.0.1",
                text -> text.isEmpty() || HOST.matcher(text).matches() ? Optional.of(text) : Optional.empty());
    }

    static ValueType<String> word() {
        return new ValueType<>("a name", text -> text.isEmpty() ? Optional.empty() : Optional.of(text));
    }

    static ValueType<String> dnsName() {
        return new ValueType<>("a fully qualified DNS name, such as insika-headless.default.svc.cluster.local",
                text -> DNS_NAME.matcher(text).matches() ? Optional.of(text) : Optional.empty());
    }

    /** A backend's placement id made from its address; checked on a sample address: what it makes must be an id. */
    static ValueType<AddressTemplate> idTemplate() {
        return new ValueType<>(AddressTemplate.EXPECTED, text -> AddressTemplate.parse(text)
                .filter(t -> Backend.isPlacementId(t.apply("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535))),
                AddressTemplate::text);
    }

    /** A backend's public address made from its address; checked on a sample address. */
    static ValueType<AddressTemplate> publicAddressTemplate() {
        return new ValueType<>(
                AddressTemplate.EXPECTED.replace("actor-host@{ip}:{port}", "https://{ip-dashed}.actors.example.com"),
                text -> AddressTemplate.parse(text)
                        .filter(t -> BackendsReader.publicAddress(t.apply("10.42.0.7", 9292)).isPresent()),
                AddressTemplate::text);
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
