package io.insika.router.strategies.ketama;

import io.insika.router.api.Backend;
import io.insika.router.strategies.placement.BackendSet;

/** How many MD5 digests (four ring points each) a backend gets: the {@code compat} option. */
enum KetamaWeighting {

    /**
     * 40 digests per unit of weight: a backend's points depend on its own id and weight alone,
     * so adding or removing a backend moves exactly that backend's keys, whatever the weights.
     * With equal weights this is the ring libketama builds, except at the few set sizes where
     * libketama's float arithmetic rounds 40 down to 39.
     */
    NONE("none") {
        @Override
        long digests(Backend backend, long totalWeight, int count) {
            return 40L * backend.weight();
        }
    },

    /**
     * libketama's own formula, {@code ks = floorf(pct * 40.0 * (float)numservers)} with
     * {@code pct = (float)memory / (float)total} (ketama.c, ketama_create_continuum). As in C,
     * {@code pct} is a float, the product is taken in double (the literal {@code 40.0} is a
     * double) and converted back to float by {@code floorf}'s parameter; at some set sizes this
     * yields 39 digests instead of 40, which existing libketama clients also do. Every backend's
     * points then depend on the total weight, so a change moves more than its own keys.
     */
    LIBKETAMA("libketama") {
        @Override
        long digests(Backend backend, long totalWeight, int count) {
            float pct = (float) backend.weight() / (float) totalWeight;
            float product = (float) (pct * 40.0 * (float) count);
            return (long) Math.floor(product);
        }
    };

    private final String optionValue;

    KetamaWeighting(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The value of the {@code compat} option that selects this weighting. */
    String optionValue() {
        return optionValue;
    }

    static KetamaWeighting byOptionValue(String value) {
        for (KetamaWeighting weighting : values()) {
            if (weighting.optionValue.equals(value)) {
                return weighting;
            }
        }
        throw new IllegalArgumentException("compat: [" + value + "]");
    }

    /** Digests per backend, in the set's order. */
    long[] digestsPerBackend(BackendSet backends) {
        long totalWeight = 0;
        for (Backend backend : backends.list()) {
            totalWeight += backend.weight();
        }
        long[] digests = new long[backends.size()];
        for (int i = 0; i < digests.length; i++) {
            digests[i] = digests(backends.get(i), totalWeight, backends.size());
        }
        return digests;
    }

    abstract long digests(Backend backend, long totalWeight, int count);
}
