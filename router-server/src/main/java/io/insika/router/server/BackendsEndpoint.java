package io.insika.router.server;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.helidon.http.HeaderValues;
import io.helidon.json.JsonArray;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonValue;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.backends.BackendStates;
import io.insika.router.server.backends.Refusal;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.PluginFailedException;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * {@code GET /observe/backends} on the admin port: every backend of the pool now, with its state
 * (up or down, and why), its request and tunnel slots in use against their limits, the share of
 * the key space it owns, how often it was refused and why, and its last error.
 *
 * <p>The share is measured, not derived: {@value #SAMPLE_KEYS} fixed sample keys are placed with
 * the snapshot's own picker (whatever strategy or plugin it is), once per snapshot. That is
 * within about one percentage point of the true share.
 *
 * <p>A strategy that throws (a plugin's, against its contract) never costs this answer: the
 * shares are then {@code null} and {@code strategy-error} says what it threw, as it does when
 * the strategy could not build a picker for the backends discovery found last.
 */
final class BackendsEndpoint implements Handler {

    static final String PATH = "/observe/backends";
    static final int SAMPLE_KEYS = 10_000;

    /** The sampled shares of one snapshot, or what its picker threw instead. */
    private record Shares(RoutingSnapshot snapshot, Map<String, Double> byId, PluginFailedException failure,
                          Instant at) {
    }

    private final BackendPool pool;
    private final BackendStates states;
    private final AtomicReference<Shares> shares = new AtomicReference<>();

    BackendsEndpoint(BackendPool pool, BackendStates states) {
        this.pool = pool;
        this.states = states;
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        RoutingSnapshot snapshot = pool.snapshot();
        Shares share = shares(snapshot);
        List<BackendState> current = states.current(snapshot.backends());
        List<JsonValue> backends = new ArrayList<>(current.size());
        for (int i = 0; i < current.size(); i++) {
            backends.add(describe(snapshot.backends().get(i), current.get(i), share.byId() == null ? null
                    : share.byId().getOrDefault(current.get(i).id(), 0.0)));
        }
        JsonObject.Builder body = JsonObject.builder()
                .set("backends", JsonArray.create(backends))
                .set("key-share-sample", SAMPLE_KEYS)
                .set("ring-fingerprint", snapshot.fingerprint())
                .set("strategy", pool.strategyName());
        strategyError(share).ifPresentOrElse(error -> body.set("strategy-error", error),
                () -> body.setNull("strategy-error"));
        body.set("strategy-options", options(pool.strategyOptions()))
                .set("version", Version.current());
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(body.build().toString().getBytes(StandardCharsets.UTF_8));
    }

    // A picker that cannot be built for the latest backends matters more than one that throws
    // picking: the backends shown are then not the ones discovery found.
    private Optional<JsonObject> strategyError(Shares share) {
        Optional<BackendPool.BuildFailure> build = pool.buildFailure();
        if (build.isPresent()) {
            return Optional.of(error("picker-build-failed", build.get().failure().getMessage() + "; kept the previous"
                    + " backends instead of the " + build.get().offered() + " offered", build.get().at()));
        }
        if (share.failure() != null) {
            return Optional.of(error("pick-failed", share.failure().getMessage(), share.at()));
        }
        return Optional.empty();
    }

    private static JsonObject error(String error, String detail, Instant at) {
        return JsonObject.builder().set("error", error).set("detail", detail).set("at", at.toString()).build();
    }

    // a share of null is not known: the picker threw
    private static JsonObject describe(Backend backend, BackendState state, Double share) {
        JsonObject.Builder json = JsonObject.builder()
                .set("id", backend.id())
                .set("address", backend.uri().toString())
                .set("weight", backend.weight())
                .set("state", state.isDown() ? "down" : "up");
        state.downReason().ifPresent(reason -> json.set("down-reason", reason));
        json.set("requests", slots(state.requestsInFlight(), state.limits().maxRequests()))
                .set("tunnels", slots(state.tunnelsOpen(), state.limits().maxTunnels()));
        if (share == null) {
            json.setNull("key-share");
        } else {
            json.set("key-share", Math.round(share * 10_000) / 10_000.0);
        }
        JsonObject.Builder refusals = JsonObject.builder();
        for (Refusal reason : Refusal.values()) {
            refusals.set(reason.label(), state.refusals(reason));
        }
        json.set("refusals", refusals.build());
        state.lastError().ifPresentOrElse(error -> json.set("last-error", JsonObject.builder()
                        .set("error", error.error())
                        .set("detail", error.detail())
                        .set("at", error.at().toString())
                        .build()),
                () -> json.setNull("last-error"));
        return json.build();
    }

    private static JsonObject options(PluginOptions options) {
        JsonObject.Builder json = JsonObject.builder();
        new java.util.TreeSet<>(options.names()).forEach(name -> json.set(name, options.get(name).orElse("")));
        return json.build();
    }

    private static JsonObject slots(int inFlight, int limit) {
        JsonObject.Builder json = JsonObject.builder().set("in-flight", inFlight);
        return limit == 0 ? json.setNull("limit").build() : json.set("limit", limit).build();
    }

    private Shares shares(RoutingSnapshot snapshot) {
        Shares known = shares.get();
        if (known != null && known.snapshot() == snapshot) {
            return known;
        }
        Map<String, Integer> owned = new HashMap<>();
        Shares sampled;
        try {
            for (int i = 0; i < SAMPLE_KEYS; i++) {
                snapshot.owner("key-share-sample-" + i).ifPresent(owner -> owned.merge(owner.id(), 1, Integer::sum));
            }
            Map<String, Double> byId = new HashMap<>();
            owned.forEach((id, count) -> byId.put(id, count / (double) SAMPLE_KEYS));
            sampled = new Shares(snapshot, byId, null, null);
        } catch (PluginFailedException e) {
            sampled = new Shares(snapshot, null, e, Instant.now());
        }
        shares.set(sampled);
        return sampled;
    }
}
