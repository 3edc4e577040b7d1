package io.insika.router.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;

/**
 * One route's traffic series, resolved once when the route table is loaded so that a request
 * ends with one update and no label lookup: how long it took, how long its backend took to
 * answer, what status class its client got, and the body bytes each way.
 */
public final class RouteMeters {

    private static final double NANOS_PER_SECOND = 1e9;
    /** The {@code code} label of an answer that was cut: its client left, or its backend broke mid-answer. */
    static final String CUT = "cut";

    // index status / 100 for 1xx..5xx; 0 holds an answer that was cut
    private final CounterDataPoint[] responses;
    private final DistributionDataPoint duration;
    private final DistributionDataPoint responseHead;
    private final CounterDataPoint received;
    private final CounterDataPoint sent;

    RouteMeters(CounterDataPoint[] responses, DistributionDataPoint duration, DistributionDataPoint responseHead,
                CounterDataPoint received, CounterDataPoint sent) {
        this.responses = responses;
        this.duration = duration;
        this.responseHead = responseHead;
        this.received = received;
        this.sent = sent;
    }

    /**
     * A request of this route ended.
     *
     * @param status        the status its client got, or a negative number when its answer was cut
     * @param nanos         from its head's arrival to its end; negative for a WebSocket tunnel,
     *                      whose life is no request's latency
     * @param headNanos     from the first byte sent to its backend until the backend's head
     *                      arrived; negative when no backend answered
     * @param bytesReceived body bytes read from its client
     * @param bytesSent     body bytes written to its client
     */
    public void ended(int status, long nanos, long headNanos, long bytesReceived, long bytesSent) {
        int group = status / 100;
        responses[group >= 1 && group <= 5 ? group : 0].inc();
        if (nanos >= 0) {
            duration.observe(nanos / NANOS_PER_SECOND);
        }
        if (headNanos >= 0) {
            responseHead.observe(headNanos / NANOS_PER_SECOND);
        }
        if (bytesReceived > 0) {
            received.inc(bytesReceived);
        }
        if (bytesSent > 0) {
            sent.inc(bytesSent);
        }
    }
}
