package io.insika.router.server.routing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;

/**
 * What decides where keys go, as a short digest: the strategy, its options and the backends'
 * ids and weights. Replicas that show the same fingerprint place every key alike; one that shows
 * another has a different configuration or sees other backends (a DNS answer not yet taken up,
 * a backend it cannot resolve), and is scattering sessions.
 *
 * <p>Health, slots and public addresses are left out: they decide whether a request is
 * admitted, not who owns its key.
 */
public final class RingFingerprint {

    private RingFingerprint() {
    }

    /**
     * The first 8 bytes of SHA-256 of a canonical text, in hex.
     *
     * @param strategy the strategy's name
     * @param options  its options as it resolved them, defaults written out ({@link StrategySettings}):
     *                 a default written out and one left out must not tell replicas apart
     * @param backends the backends, in any order
     * @return 16 lowercase hex digits
     */
    public static String of(String strategy, PluginOptions options, List<Backend> backends) {
        StringBuilder text = new StringBuilder("strategy ").append(strategy).append('\n');
        for (String name : new TreeSet<>(options.names())) {
            text.append("option ").append(name).append('=').append(options.get(name).orElse("")).append('\n');
        }
        backends.stream().sorted(java.util.Comparator.comparing(Backend::id))
                .forEach(b -> text.append("backend ").append(b.id()).append(' ').append(b.weight()).append('\n'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
