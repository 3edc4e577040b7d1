package io.insika.router.strategies.ketama;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.api.RouteStrategyProvider;

/**
 * The {@code ketama} strategy: consistent hashing on libketama's (last.fm) MD5 continuum, so
 * owners can be computed by any libketama-style client.
 *
 * <p>Options:
 * <ul>
 *   <li>{@code compat}: {@code none} (default) gives every backend 40 x weight digests (160
 *       points at weight 1), independent of the other backends, so adding or removing one
 *       moves only its own keys; {@code libketama} uses libketama's weight formula
 *       {@code floorf(pct * 40.0 * N)}, bit-compatible with existing libketama deployments.</li>
 * </ul>
 * See {@code docs/strategies.md} for the exact ring layout.
 */
public final class KetamaRouteStrategyProvider implements RouteStrategyProvider {

    /** The name operators write in YAML. */
    public static final String NAME = "ketama";

    static final String COMPAT = "compat";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteStrategy create(PluginOptions options) {
        return new KetamaRouteStrategy(weighting(options));
    }

    @Override
    public PluginOptions resolve(PluginOptions options) {
        return PluginOptions.of(options.path(), Map.of(COMPAT, weighting(options).optionValue()));
    }

    private static KetamaWeighting weighting(PluginOptions options) {
        options.requireOnly(Set.of(COMPAT));
        Set<String> allowed = Arrays.stream(KetamaWeighting.values())
                .map(KetamaWeighting::optionValue)
                .collect(Collectors.toSet());
        String compat = options.oneOf(COMPAT, KetamaWeighting.NONE.optionValue(), allowed);
        return KetamaWeighting.byOptionValue(compat);
    }
}
