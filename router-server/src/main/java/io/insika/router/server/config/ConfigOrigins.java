package io.insika.router.server.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where each effective value of a {@link RouterConfig} came from, keyed by its YAML key
 * ({@code server.port}, {@code backends.dns.interval}, {@code routes}, ...), for {@code check}.
 *
 * @param file    the YAML file read, or empty when only the embedded default was
 * @param sources the keys in the order {@code check} prints them; a key absent here was not
 *                relevant (such as the DNS keys in static mode)
 * @param sha256  the {@link ConfigDigest} of the file's bytes as read: what a file watch compares
 *                with, so a change made while the router was starting is not missed
 */
public record ConfigOrigins(Optional<String> file, Map<String, ValueSource> sources, Optional<String> sha256) {

    public ConfigOrigins {
        sources = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /**
     * Where a key's value came from.
     *
     * @param key a YAML key such as {@code server.port}
     * @return its source; {@link ValueSource#DEFAULT} for a key nobody set
     */
    public ValueSource of(String key) {
        return sources.getOrDefault(key, ValueSource.DEFAULT);
    }
}
