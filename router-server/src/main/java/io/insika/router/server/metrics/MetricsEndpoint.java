package io.insika.router.server.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * {@code GET /observe/metrics} on the admin port: the Prometheus text format, or OpenMetrics
 * when the scraper asks for it (Prometheus does, and gets the {@code # EOF} it checks for).
 */
public final class MetricsEndpoint implements Handler {

    /** Where the endpoint lives on the admin port, beside {@code /observe/health}. */
    public static final String PATH = "/observe/metrics";

    private final RouterMetrics metrics;
    private final ExpositionFormatWriter text = PrometheusTextFormatWriter.create();
    private final ExpositionFormatWriter openMetrics = OpenMetricsTextFormatWriter.create();

    public MetricsEndpoint(RouterMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        String accept = request.headers().first(HeaderNames.ACCEPT).orElse("");
        ExpositionFormatWriter writer = openMetrics.accepts(accept) ? openMetrics : text;
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        try {
            writer.write(body, metrics.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array stream does not fail", e);
        }
        response.header(HeaderNames.CONTENT_TYPE, writer.getContentType());
        response.send(body.toByteArray());
    }
}
