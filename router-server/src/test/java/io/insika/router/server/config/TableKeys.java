package io.insika.router.server.config;

import java.util.List;
import java.util.stream.Collectors;

/** The key lists tests expect, made from {@link Settings} rather than written out again. */
final class TableKeys {

    private TableKeys() {
    }

    /** The YAML's top-level keys, as an unknown-key message lists them: sorted, comma-separated. */
    static String topLevel() {
        return Settings.all().stream().map(key -> key.key().split("\\.")[0]).distinct().sorted()
                .collect(Collectors.joining(", "));
    }

    /** The keys directly under a section, such as {@code server}, as an unknown-key message lists them. */
    static String under(String section) {
        String prefix = section + ".";
        return Settings.all().stream().map(ConfigKey::key).filter(key -> key.startsWith(prefix))
                .map(key -> key.substring(prefix.length()).split("\\.")[0]).distinct().sorted()
                .collect(Collectors.joining(", "));
    }

    /** Every key in table order, but those of the other backends mode: what the loader reports in static mode. */
    static List<String> inStaticMode() {
        return Settings.all().stream().map(ConfigKey::key).filter(key -> !key.startsWith("backends.dns.")).toList();
    }

    /** Every key in table order, but the static list: what the loader reports in DNS mode. */
    static List<String> inDnsMode() {
        return Settings.all().stream().map(ConfigKey::key).filter(key -> !key.equals(Settings.BACKENDS_STATIC.key()))
                .toList();
    }
}
