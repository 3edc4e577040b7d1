package io.insika.router.strategies.ketama;

import java.util.List;
import java.util.function.Function;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;
import io.insika.router.strategies.placement.OwnerMemoContract;

class KetamaOwnerMemoTest implements OwnerMemoContract {

    @Override
    public Picker picker(List<Backend> backends) {
        return KetamaPlacementTest.picker(backends);
    }

    @Override
    public Function<String, Backend> uncached(List<Backend> backends) {
        BackendSet set = BackendSet.of(backends);
        KetamaRing ring = KetamaRing.build(set, KetamaWeighting.NONE);
        return key -> set.get(ring.ownerOf(KetamaRing.keyHash(key)));
    }
}
