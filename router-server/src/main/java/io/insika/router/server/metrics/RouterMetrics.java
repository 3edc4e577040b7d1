package io.insika.router.server.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.backends.Refusal;
import io.insika.router.server.routing.Route;
import io.insika.router.server.routing.RoutingSnapshot;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmCompilationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryPoolAllocationMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The router's Prometheus metrics: what was placed how, what each backend answered and how
 * fast, and what failed. One registry per router (not the global one), so two routers in one
 * JVM, as in tests, never mix their counts.
 *
 * <p>The request path only increments series resolved in advance: per route at start, per
 * backend on its first request. A backend that leaves the pool is exported once more with its
 * final counts, then dropped, so DNS churn over weeks does not grow the scrape without bound.
 */
public final class RouterMetrics {

    /** The {@code route} and {@code backend} label value when there is none. */
    public static final String NONE = "(none)";
    private static final String PREFIX = "insika_router_";
    private static final double[] HEAD_SECONDS = {
            0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
    // Few buckets, for a proxy's range: a scrape carries them for every route and every backend.
    private static final double[] REQUEST_SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
    private static final String[] CODES = {RouteMeters.CUT, "1xx", "2xx", "3xx", "4xx", "5xx"};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter placements;
    private final Counter responses;
    private final Histogram responseHead;
    private final Counter errors;
    private final Counter redirects;
    private final Counter redirectsUnavailable;
    private final Gauge active;
    private final Gauge tunnels;
    private final Counter mismatches;
    private final Counter pluginFailures;
    private final Counter routeResponses;
    private final Histogram routeDuration;
    private final Histogram routeResponseHead;
    private final Counter receivedBytes;
    private final Counter sentBytes;
    private final Histogram backendDuration;
    // Replaced whole by a reload, and read without a lock by every request. They hold the routes
    // of the table before too, for requests that read it just before the reload: a series is
    // found by its label, so a route kept across a reload keeps counting in the same one.
    private volatile Map<Route, CounterDataPoint[]> byRoute = Map.of();
    private volatile Map<Route, CounterDataPoint> mismatchesByRoute = Map.of();
    private volatile Map<Route, RouteMeters> trafficByRoute = Map.of();
    private final RouteMeters unroutedTraffic;
    private List<Route> currentRoutes = List.of(); // guarded by this
    private final CounterDataPoint[] unrouted;
    private final Map<String, BackendMeters> byBackend = new ConcurrentHashMap<>();
    private final CounterDataPoint noBackend;
    private final Supplier<RoutingSnapshot> pool;
    private final Info ring;
    private final Object retireLock = new Object();
    private Set<String> departed = Set.of();

    /**
     * @param routes the routes requests can match; their series exist from the start
     * @param pool    the pool's snapshot now
     * @param version the router's version, for {@code insika_router_build_info}
     */
    public RouterMetrics(List<Route> routes, Supplier<RoutingSnapshot> pool, String version) {
        this.pool = pool;
        placements = Counter.builder().name(PREFIX + "requests")
                .help("Proxied requests by the route they matched and how their backend was chosen")
                .labelNames("route", "placement").withoutExemplars().register(registry);
        responses = Counter.builder().name(PREFIX + "backend_responses")
                .help("Responses relayed from each backend, by status class")
                .labelNames("backend", "code").withoutExemplars().register(registry);
        responseHead = Histogram.builder().name(PREFIX + "backend_response_head_seconds").unit(Unit.SECONDS)
                .help("From the first byte sent to a backend until its response head arrived")
                .labelNames("backend").classicOnly().classicUpperBounds(HEAD_SECONDS).withoutExemplars()
                .register(registry);
        errors = Counter.builder().name(PREFIX + "backend_errors")
                .help("Requests that got no complete answer from their backend, by why")
                .labelNames("backend", "error").withoutExemplars().register(registry);
        redirects = Counter.builder().name(PREFIX + "redirects")
                .help("Keyed requests answered 421 with their owner's public address instead of being proxied")
                .labelNames("route", "backend").withoutExemplars().register(registry);
        redirectsUnavailable = Counter.builder().name(PREFIX + "redirects_unavailable")
                .help("Requests of a redirecting route proxied because their owner has no public-address")
                .labelNames("backend").withoutExemplars().register(registry);
        active = Gauge.builder().name(PREFIX + "active_requests")
                .help("Proxied requests in flight, streams included").withoutExemplars().register(registry);
        tunnels = Gauge.builder().name(PREFIX + "open_tunnels")
                .help("WebSocket connections tunnelled to their backend now").withoutExemplars().register(registry);
        GaugeWithCallback.builder().name(PREFIX + "backends").help("Backends in the pool")
                .callback(callback -> callback.call(pool.get().backends().size())).register(registry);
        Info.builder().name(PREFIX + "build").help("The router's version")
                .labelNames("version").register(registry).setLabelValues(version);
        ring = Info.builder().name(PREFIX + "ring")
                .help("The digest of the strategy, its options and the backends' ids and weights:"
                        + " replicas that place keys alike show the same fingerprint")
                .labelNames("fingerprint").register(registry);
        mismatches = Counter.builder().name(PREFIX + "carrier_mismatches")
                .help("Keyed requests whose route's carriers of the key (a header, a path segment) held different"
                        + " values; placed by the first carrier that had one")
                .labelNames("route").withoutExemplars().register(registry);
        pluginFailures = Counter.builder().name(PREFIX + "plugin_failures")
                .help("Requests answered 500 because a plugin threw placing them: the strategy, or a key extractor")
                .labelNames("route", "plugin").withoutExemplars().register(registry);
        routeResponses = Counter.builder().name(PREFIX + "route_responses")
                .help("Answers clients got, by route and status class; cut: the answer did not end (the client left,"
                        + " or the backend broke mid-answer)")
                .labelNames("route", "code").withoutExemplars().register(registry);
        routeDuration = Histogram.builder().name(PREFIX + "request_duration_seconds").unit(Unit.SECONDS)
                .help("From a request head's arrival until its answer ended, by route (WebSocket tunnels not included)")
                .labelNames("route").classicOnly().classicUpperBounds(REQUEST_SECONDS).withoutExemplars()
                .register(registry);
        routeResponseHead = Histogram.builder().name(PREFIX + "route_response_head_seconds").unit(Unit.SECONDS)
                .help("From the first byte sent to the backend until its response head arrived, by route")
                .labelNames("route").classicOnly().classicUpperBounds(REQUEST_SECONDS).withoutExemplars()
                .register(registry);
        receivedBytes = Counter.builder().name(PREFIX + "received_bytes").unit(Unit.BYTES)
                .help("Request body bytes read from clients, by route")
                .labelNames("route").withoutExemplars().register(registry);
        sentBytes = Counter.builder().name(PREFIX + "sent_bytes").unit(Unit.BYTES)
                .help("Bytes written to clients, answers' heads included (or carried to them by a tunnel), by route")
                .labelNames("route").withoutExemplars().register(registry);
        backendDuration = Histogram.builder().name(PREFIX + "backend_request_duration_seconds").unit(Unit.SECONDS)
                .help("From a request head's arrival until its answer ended, for requests each backend answered")
                .labelNames("backend").classicOnly().classicUpperBounds(REQUEST_SECONDS).withoutExemplars()
                .register(registry);
        routes(routes);
        unrouted = placementSeries(NONE);
        unroutedTraffic = trafficSeries(NONE);
        noBackend = errors.labelValues(NONE, BackendError.NO_BACKEND.label());
        registerJvmMetrics(registry);
    }

    /**
     * Prometheus' JVM instrumentation, all of {@code JvmMetrics} but its native-memory group: that
     * one asks the JVM for a native-memory summary through the diagnostic-command MBean, which
     * loads JFR's command help on the way and cost 78 ms of a 560 ms start-up, to export nothing
     * unless the JVM runs with {@code -XX:NativeMemoryTracking}.
     */
    private static void registerJvmMetrics(PrometheusRegistry registry) {
        JvmThreadsMetrics.builder().register(registry);
        JvmBufferPoolMetrics.builder().register(registry);
        JvmClassLoadingMetrics.builder().register(registry);
        JvmCompilationMetrics.builder().register(registry);
        JvmGarbageCollectorMetrics.builder().register(registry);
        JvmMemoryPoolAllocationMetrics.builder().register(registry);
        JvmMemoryMetrics.builder().register(registry);
        JvmRuntimeInfoMetric.builder().register(registry);
        ProcessMetrics.builder().register(registry);
    }

    /**
     * Counts requests of these routes from now on: a reload's new table. The series of a route
     * no longer configured are kept, frozen, until the router restarts.
     *
     * @param routes the table's routes
     */
    public synchronized void routes(List<Route> routes) {
        Map<Route, CounterDataPoint[]> placed = new IdentityHashMap<>();
        Map<Route, CounterDataPoint> mismatched = new IdentityHashMap<>();
        Map<Route, RouteMeters> traffic = new IdentityHashMap<>();
        for (Route route : concat(currentRoutes, routes)) {
            placed.put(route, placementSeries(route.toString()));
            traffic.put(route, trafficSeries(route.toString()));
            if (route.extractors().size() > 1) {
                mismatched.put(route, mismatches.labelValues(route.toString()));
            }
        }
        byRoute = placed;
        mismatchesByRoute = mismatched;
        trafficByRoute = traffic;
        currentRoutes = List.copyOf(routes);
    }

    private static List<Route> concat(List<Route> before, List<Route> now) {
        List<Route> both = new ArrayList<>(before);
        both.addAll(now);
        return both;
    }

    private CounterDataPoint[] placementSeries(String route) {
        CounterDataPoint[] series = new CounterDataPoint[Placement.values().length];
        for (Placement placement : Placement.values()) {
            series[placement.ordinal()] = placements.labelValues(route, placement.label());
        }
        return series;
    }

    private RouteMeters trafficSeries(String route) {
        CounterDataPoint[] codes = new CounterDataPoint[CODES.length];
        for (int group = 0; group < CODES.length; group++) {
            codes[group] = routeResponses.labelValues(route, CODES[group]);
        }
        return new RouteMeters(codes, routeDuration.labelValues(route), routeResponseHead.labelValues(route),
                receivedBytes.labelValues(route), sentBytes.labelValues(route));
    }

    /**
     * The traffic series of a route, resolved when its table was loaded.
     *
     * @param route the route a request matched, or {@code null} for none
     */
    public RouteMeters route(Route route) {
        if (route == null) {
            return unroutedTraffic;
        }
        RouteMeters series = trafficByRoute.get(route);
        return series != null ? series : unroutedTraffic; // a route of another table than the one given
    }

    /**
     * Counts how a request was placed.
     *
     * @param route the route it matched, or {@code null} for none
     */
    public void placed(Route route, Placement placement) {
        CounterDataPoint[] series = route == null ? unrouted : byRoute.get(route);
        if (series != null) { // a route of another table than the one given at construction
            series[placement.ordinal()].inc();
        }
    }

    /** A keyed request's carriers disagreed on its key (only routes with several can). */
    public void carrierMismatch(Route route) {
        CounterDataPoint series = mismatchesByRoute.get(route);
        if (series != null) {
            series.inc();
        }
    }

    /**
     * A plugin threw placing a request. The series is looked up per failure, not resolved in
     * advance: failures are rare, and their labels are bounded by the configuration.
     *
     * @param route  the route it matched
     * @param plugin the strategy's name or the extractor's type
     */
    public void pluginFailed(Route route, String plugin) {
        pluginFailures.labelValues(route.toString(), plugin).inc();
    }

    /** A keyed request was redirected to its owner's public address. */
    public void redirected(Route route, Backend owner) {
        redirects.labelValues(route.toString(), owner.id()).inc();
    }

    /** A request would have been redirected, but its owner has no public address. */
    public void redirectUnavailable(Backend owner) {
        redirectsUnavailable.labelValues(owner.id()).inc();
    }

    /** The series of the backend a request was sent to. */
    public BackendMeters backend(Backend backend) {
        // looked up before computeIfAbsent, whose bound method reference is made on every call
        BackendMeters meters = byBackend.get(backend.id());
        return meters != null ? meters : byBackend.computeIfAbsent(backend.id(), this::meters);
    }

    /** A request found the pool empty. */
    public void noBackend() {
        noBackend.inc();
    }

    private BackendMeters meters(String id) {
        CounterDataPoint[] codes = new CounterDataPoint[6];
        codes[0] = responses.labelValues(id, "other");
        for (int group = 1; group <= 5; group++) {
            codes[group] = responses.labelValues(id, group + "xx");
        }
        EnumMap<BackendError, CounterDataPoint> failures = new EnumMap<>(BackendError.class);
        for (BackendError error : BackendError.values()) {
            if (error != BackendError.NO_BACKEND) {
                failures.put(error, errors.labelValues(id, error.label()));
            }
        }
        return new BackendMeters(codes, responseHead.labelValues(id), failures, backendDuration.labelValues(id));
    }

    /** A proxied request began; pair with {@link #requestEnded()}. */
    public void requestStarted() {
        active.inc();
    }

    public void requestEnded() {
        active.dec();
    }

    /** A tunnel opened; pair with {@link #tunnelClosed()}. */
    public void tunnelOpened() {
        tunnels.inc();
    }

    public void tunnelClosed() {
        tunnels.dec();
    }

    /**
     * Adds a gauge read at each scrape.
     *
     * @param name  its name after {@code insika_router_}
     * @param help  what it measures
     * @param value read at scrape time, on the scraping thread
     */
    public void gauge(String name, String help, DoubleSupplier value) {
        GaugeWithCallback.builder().name(PREFIX + name).help(help)
                .callback(callback -> callback.call(value.getAsDouble())).register(registry);
    }

    /**
     * Adds a counter read at each scrape, for counts kept elsewhere.
     *
     * @param name  its name after {@code insika_router_}, without {@code _total}
     * @param help  what it counts
     * @param value read at scrape time; never decreases
     */
    public void counter(String name, String help, LongSupplier value) {
        CounterWithCallback.builder().name(PREFIX + name).help(help)
                .callback(callback -> callback.call(value.getAsLong())).register(registry);
    }

    /**
     * Adds a counter with one label, read at each scrape, for counts kept elsewhere.
     *
     * @param name   its name after {@code insika_router_}, without {@code _total}
     * @param help   what it counts
     * @param label  the label's name
     * @param values each label value's count, in the order exported; none ever decreases
     */
    public void counter(String name, String help, String label, Map<String, LongSupplier> values) {
        Map<String, LongSupplier> series = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        CounterWithCallback.builder().name(PREFIX + name).help(help).labelNames(label)
                .callback(callback -> series.forEach((value, count) -> callback.call(count.getAsLong(), value)))
                .register(registry);
    }

    /**
     * Adds the per-backend series of slots, health and refusals, read at each scrape.
     *
     * @param states the states of the backends in the pool now
     */
    public void backendStates(Supplier<List<BackendState>> states) {
        GaugeWithCallback.builder().name(PREFIX + "backend_in_flight")
                .help("Requests in flight to each backend, or tunnels open to it, by kind")
                .labelNames("backend", "kind")
                .callback(callback -> states.get().forEach(state -> {
                    callback.call(state.requestsInFlight(), state.id(), "requests");
                    callback.call(state.tunnelsOpen(), state.id(), "tunnels");
                })).register(registry);
        GaugeWithCallback.builder().name(PREFIX + "backend_up")
                .help("1 while a backend takes requests, 0 while it is marked down")
                .labelNames("backend")
                .callback(callback -> states.get().forEach(state -> callback.call(state.isDown() ? 0 : 1, state.id())))
                .register(registry);
        CounterWithCallback.builder().name(PREFIX + "backend_refusals")
                .help("Times a backend was passed over, or its session refused, by why: down, or its slots full")
                .labelNames("backend", "reason")
                .callback(callback -> states.get().forEach(state -> {
                    for (Refusal reason : Refusal.values()) {
                        callback.call(state.refusals(reason), state.id(), reason.label());
                    }
                })).register(registry);
    }

    /** Everything, as of now. */
    public MetricSnapshots scrape() {
        retireDeparted();
        ring.setLabelValues(pool.get().fingerprint()); // so a new DNS answer shows in this scrape
        return registry.scrape();
    }

    // Backends gone from the pool since the previous scrape were exported then with their final
    // counts; drop them now. Requests still in flight to one may bring it back until they end.
    private void retireDeparted() {
        synchronized (retireLock) {
            Set<String> current = new HashSet<>();
            pool.get().backends().forEach(backend -> current.add(backend.id()));
            for (String id : departed) {
                if (!current.contains(id) && byBackend.remove(id) != null) {
                    responses.removeIf(labels -> labels.get(0).equals(id));
                    errors.removeIf(labels -> labels.get(0).equals(id));
                    responseHead.remove(id);
                    backendDuration.remove(id);
                    redirects.removeIf(labels -> labels.get(1).equals(id));
                    redirectsUnavailable.remove(id);
                }
            }
            Set<String> gone = new HashSet<>(byBackend.keySet());
            gone.removeAll(current);
            departed = gone;
        }
    }
}
