package io.insika.router.strategies.rendezvous;

import java.util.List;
import java.util.function.Function;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;
import io.insika.router.strategies.placement.OwnerMemoContract;

class RendezvousOwnerMemoTest implements OwnerMemoContract {

    @Override
    public Picker picker(List<Backend> backends) {
        return RendezvousPlacementTest.picker(backends);
    }

    @Override
    public Function<String, Backend> uncached(List<Backend> backends) {
        BackendSet set = BackendSet.of(backends);
        RendezvousPicker scorer = new RendezvousPicker(set);
        return key -> set.get(scorer.ownerIndex(RendezvousHash.of(key)));
    }
}
