package io.insika.router.strategies.rendezvous;

import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;
import io.insika.router.strategies.placement.OwnerMemo;

/**
 * Scores every backend for the key and returns the highest. Backends are visited in id order
 * and only a strictly better one replaces the leader, so the smaller id wins a full tie. The
 * owners of recent keys are remembered, since a pick costs a hash per backend.
 */
final class RendezvousPicker implements Picker {

    private final BackendSet backends;
    private final long[] idHashes;
    private final int[] weights;
    private final OwnerMemo owners;

    RendezvousPicker(BackendSet backends) {
        this.backends = backends;
        this.idHashes = new long[backends.size()];
        this.weights = new int[backends.size()];
        for (int i = 0; i < idHashes.length; i++) {
            idHashes[i] = RendezvousHash.of(backends.get(i).id());
            weights[i] = backends.get(i).weight();
        }
        this.owners = new OwnerMemo(key -> ownerIndex(RendezvousHash.of(key)));
    }

    @Override
    public Optional<Backend> pick(String key) {
        return switch (backends.size()) {
            case 0 -> Optional.empty();
            case 1 -> backends.owner(0);
            default -> backends.owner(owners.ownerOf(key));
        };
    }

    int ownerIndex(long keyHash) {
        return backends.equalWeights() ? highestRank(keyHash) : highestScore(keyHash);
    }

    /**
     * With one weight for all, {@code -w / ln(h)} never decreases as h's rank grows, so the
     * highest rank is the highest score, and the rank breaks score ties: the same owner as
     * {@link #highestScore} without a logarithm per backend.
     */
    private int highestRank(long keyHash) {
        int best = 0;
        long bestRank = RendezvousHash.rank(RendezvousHash.mix(keyHash, idHashes[0]));
        for (int i = 1; i < idHashes.length; i++) {
            long rank = RendezvousHash.rank(RendezvousHash.mix(keyHash, idHashes[i]));
            if (rank > bestRank) {
                best = i;
                bestRank = rank;
            }
        }
        return best;
    }

    private int highestScore(long keyHash) {
        int best = 0;
        long bestMixed = RendezvousHash.mix(keyHash, idHashes[0]);
        double bestScore = RendezvousHash.score(weights[0], bestMixed);
        for (int i = 1; i < idHashes.length; i++) {
            long mixed = RendezvousHash.mix(keyHash, idHashes[i]);
            double score = RendezvousHash.score(weights[i], mixed);
            if (score > bestScore
                    || (score == bestScore && RendezvousHash.rank(mixed) > RendezvousHash.rank(bestMixed))) {
                best = i;
                bestScore = score;
                bestMixed = mixed;
            }
        }
        return best;
    }

    @Override
    public List<Backend> backends() {
        return backends.list();
    }
}
