package io.insika.router.strategies.ketama;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import io.insika.router.api.Backend;
import io.insika.router.strategies.placement.BackendSet;
import org.junit.jupiter.api.Test;

/**
 * {@code compat: libketama} against libketama's published vectors. Sources, all in last.fm's
 * libketama repository (github.com/RJ/ketama): {@code libketama/test.sh} (the MD5 of
 * {@code ketama_test}'s output), {@code libketama/ketama_test.c} (what that program prints),
 * {@code ketama.servers} (the eight weighted servers) and {@code libketama/ketama.c}
 * ({@code ketama_hashi}, {@code ketama_get_server}, the weight formula in
 * {@code ketama_create_continuum}).
 */
class KetamaLibketamaVectorsTest {

    private static final List<Backend> KETAMA_SERVERS = List.of(
            backend("10.0.1.1:11211", 600), backend("10.0.1.2:11211", 300),
            backend("10.0.1.3:11211", 200), backend("10.0.1.4:11211", 350),
            backend("10.0.1.5:11211", 1000), backend("10.0.1.6:11211", 800),
            backend("10.0.1.7:11211", 950), backend("10.0.1.8:11211", 100));

    @Test
    void keyHashIsLibketamasHashi() {
        assertThat(Integer.toUnsignedLong(KetamaRing.keyHash("test")), is(3446378249L));
    }

    @Test
    void twoWeightedServersMapTestToTheFirstServersPoint() {
        KetamaRing ring = ring(List.of(backend("127.0.0.1:11211", 600), backend("127.0.0.1:11212", 400)));
        int index = ring.pointIndex(KetamaRing.keyHash("test"));

        assertThat(ring.size(), is(320));
        assertThat(ring.point(index), is(3454255383L));
        assertThat(ring.owner(index), is(0));
    }

    @Test
    void ketamaServersRingHas1264Points() {
        assertThat(ring(KETAMA_SERVERS).size(), is(1264));
    }

    @Test
    void millionKeysPrintWhatLibketamaTestPrints() throws Exception {
        KetamaRing ring = ring(KETAMA_SERVERS);
        BackendSet set = BackendSet.of(KETAMA_SERVERS);
        MessageDigest output = MessageDigest.getInstance("MD5");
        // ketama_test prints ketama_error() (empty) and a newline first.
        StringBuilder text = new StringBuilder("\n");
        for (int key = 0; key < 1_000_000; key++) {
            int hash = KetamaRing.keyHash(Integer.toString(key));
            int index = ring.pointIndex(hash);
            text.append(Integer.toUnsignedString(hash)).append(' ').append(ring.point(index)).append(' ')
                    .append(set.get(ring.owner(index)).id()).append('\n');
            if (text.length() > 1 << 16) {
                output.update(text.toString().getBytes(StandardCharsets.US_ASCII));
                text.setLength(0);
            }
        }
        output.update(text.toString().getBytes(StandardCharsets.US_ASCII));

        assertThat(HexFormat.of().formatHex(output.digest()), is("5672b131391f5aa2b280936aec1eea74"));
    }

    @Test
    void weightFormulaIsComputedAsCDoesWithADoubleProduct() {
        // floorf(pct * 40.0 * (float)N): 40.0 is a double, so the product is exact and rounded
        // to float once. At 61 equal servers that gives 39.999996f, floored to 39; at 25 it
        // gives exactly 40, where an all-float product (40.0f) would round down to 39.
        assertThat(digestsOfFirst(61), is(39L));
        assertThat(digestsOfFirst(25), is(40L));
        assertThat(digestsOfFirst(10), is(40L));
    }

    @Test
    void equalWeightsGiveLibketamasRingInTheDefaultModeToo() {
        BackendSet set = BackendSet.of(backends(10));

        KetamaRing compat = KetamaRing.build(set, KetamaWeighting.LIBKETAMA);
        KetamaRing own = KetamaRing.build(set, KetamaWeighting.NONE);

        assertThat(own.size(), is(compat.size()));
        for (int i = 0; i < own.size(); i++) {
            assertThat(own.point(i), is(compat.point(i)));
            assertThat(own.owner(i), is(compat.owner(i)));
        }
    }

    private static long digestsOfFirst(int equalServers) {
        return KetamaWeighting.LIBKETAMA.digestsPerBackend(BackendSet.of(backends(equalServers)))[0];
    }

    private static KetamaRing ring(List<Backend> backends) {
        return KetamaRing.build(BackendSet.of(backends), KetamaWeighting.LIBKETAMA);
    }
}
