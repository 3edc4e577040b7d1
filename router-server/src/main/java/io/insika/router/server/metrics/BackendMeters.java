package io.insika.router.server.metrics;

import java.util.EnumMap;
import java.util.Map;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;

/**
 * One backend's series, resolved once so the request path only increments: looking a labelled
 * series up costs a list and a map lookup per call.
 */
public final class BackendMeters {

    private static final double NANOS_PER_SECOND = 1e9;

    // index status / 100; 0 holds anything outside 1xx..5xx
    private final CounterDataPoint[] responses;
    private final DistributionDataPoint responseHead;
    private final Map<BackendError, CounterDataPoint> errors;
    private final DistributionDataPoint duration;

    BackendMeters(CounterDataPoint[] responses, DistributionDataPoint responseHead,
                  EnumMap<BackendError, CounterDataPoint> errors, DistributionDataPoint duration) {
        this.responses = responses;
        this.responseHead = responseHead;
        this.errors = errors;
        this.duration = duration;
    }

    /**
     * The backend answered.
     *
     * @param status      its status code
     * @param headNanos   from the first byte sent to the response head read
     */
    public void answered(int status, long headNanos) {
        int group = status / 100;
        responses[group >= 1 && group <= 5 ? group : 0].inc();
        responseHead.observe(headNanos / NANOS_PER_SECOND);
    }

    /**
     * A request this backend answered ended (its answer relayed to its end, or cut).
     *
     * @param nanos from the request head's arrival at the router to the request's end
     */
    public void ended(long nanos) {
        duration.observe(nanos / NANOS_PER_SECOND);
    }

    /** The exchange failed; see {@link BackendError} ({@code NO_BACKEND} is not a backend's). */
    public void failed(BackendError error) {
        errors.get(error).inc();
    }
}
