package io.insika.router.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

import io.insika.router.api.BodyPrefix;
import io.insika.router.api.RequestView;

/**
 * A POST whose body sits in memory, capped like the router's body prefix: what a body-reading
 * extractor sees, minus the network.
 */
final class InMemoryRequestView implements RequestView, BodyPrefix {

    private final byte[] body;
    private final int limit;

    InMemoryRequestView(byte[] body, int limit) {
        this.body = body;
        this.limit = limit;
    }

    @Override
    public String method() {
        return "POST";
    }

    @Override
    public String rawPath() {
        return "/v1/responses";
    }

    @Override
    public Optional<String> pathParameter(String name) {
        return Optional.empty();
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.empty();
    }

    @Override
    public List<String> headerValues(String name) {
        return List.of();
    }

    @Override
    public Optional<String> queryParameter(String name) {
        return Optional.empty();
    }

    @Override
    public Optional<String> cookie(String name) {
        return Optional.empty();
    }

    @Override
    public BodyPrefix body() {
        return this;
    }

    @Override
    public InputStream open() {
        // Serves only what the parser asks for, like the router's lazily filled prefix.
        return new ByteArrayInputStream(body, 0, Math.min(body.length, limit));
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public boolean exceedsLimit() {
        return body.length > limit;
    }
}
