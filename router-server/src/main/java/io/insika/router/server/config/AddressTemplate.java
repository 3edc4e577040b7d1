package io.insika.router.server.config;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A text made for each address DNS resolves: a backend's placement id, say, when the cluster
 * behind the router knows its members by another name than {@code ip:port}. Placeholders:
 * {@code {ip}} the address as written ({@code 10.42.0.7}, {@code fd00::7}), {@code {host}} the
 * same with IPv6 in brackets ({@code [fd00::7]}), {@code {ip-dashed}} with dashes for dots and
 * colons ({@code 10-42-0-7}, as Kubernetes names pods), {@code {port}} the backends' port.
 *
 * @param text the template as written
 */
public record AddressTemplate(String text) {

    /** What a resolved backend's id is when no template is given: {@code host:port}. */
    public static final AddressTemplate DEFAULT_ID = new AddressTemplate("{host}:{port}");
    /** What a valid template looks like, for the error message. */
    public static final String EXPECTED = "a text with {ip}, {host} or {ip-dashed}, and optionally {port},"
            + " such as actor-host@{ip}:{port}";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z-]*)}");

    /**
     * A template, if the text is one: only known placeholders, at least one naming the address
     * (else every backend would get the same text).
     */
    static Optional<AddressTemplate> parse(String text) {
        Matcher placeholders = PLACEHOLDER.matcher(text);
        boolean address = false;
        while (placeholders.find()) {
            switch (placeholders.group(1)) {
                case "ip", "host", "ip-dashed" -> address = true;
                case "port" -> {
                    // fine anywhere
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        String rest = PLACEHOLDER.matcher(text).replaceAll("");
        return address && rest.indexOf('{') < 0 && rest.indexOf('}') < 0
                ? Optional.of(new AddressTemplate(text)) : Optional.empty();
    }

    /**
     * The text for one resolved address.
     *
     * @param ip   the address as written: IPv4 dotted, IPv6 in its RFC 5952 short form, no brackets
     * @param port the backends' port
     */
    public String apply(String ip, int port) {
        String host = ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip;
        return text.replace("{ip-dashed}", ip.replace('.', '-').replace(':', '-'))
                .replace("{ip}", ip)
                .replace("{host}", host)
                .replace("{port}", String.valueOf(port));
    }
}
