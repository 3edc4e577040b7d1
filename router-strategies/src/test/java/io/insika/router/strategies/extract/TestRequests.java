package io.insika.router.strategies.extract;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.BodyPrefix;
import io.insika.router.api.RequestView;

/**
 * Builds {@link RequestView}s for extractor tests: plain values in, the same answers a router's
 * view gives out. Not a model of HTTP parsing; that is the server's job and tested there.
 */
public final class TestRequests {

    /** The router's default {@code body-max-bytes}. */
    public static final int DEFAULT_LIMIT = 262_144;

    private String method = "POST";
    private String rawPath = "/";
    private final Map<String, String> pathParameters = new HashMap<>();
    private final Map<String, List<String>> headers = new HashMap<>();
    private final Map<String, String> query = new HashMap<>();
    private final Map<String, String> cookies = new HashMap<>();
    private CountingBodyPrefix counting = new CountingBodyPrefix(new byte[0], DEFAULT_LIMIT);
    private BodyPrefix body = counting;

    private TestRequests() {
    }

    public static TestRequests request() {
        return new TestRequests();
    }

    /** A POST whose body is this UTF-8 text, under the default limit. */
    public static RequestView jsonBody(String json) {
        return request().body(json).build();
    }

    public TestRequests method(String value) {
        method = value;
        return this;
    }

    public TestRequests path(String value) {
        rawPath = value;
        return this;
    }

    public TestRequests pathParameter(String name, String value) {
        pathParameters.put(name, value);
        return this;
    }

    public TestRequests header(String name, String value) {
        headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(value);
        return this;
    }

    /** A query parameter's first value, already decoded, as the router hands it over. */
    public TestRequests query(String name, String value) {
        query.putIfAbsent(name, value);
        return this;
    }

    public TestRequests cookie(String name, String value) {
        cookies.putIfAbsent(name, value);
        return this;
    }

    public TestRequests body(String text) {
        return body(text.getBytes(StandardCharsets.UTF_8), DEFAULT_LIMIT);
    }

    public TestRequests body(byte[] bytes, int limit) {
        counting = new CountingBodyPrefix(bytes, limit);
        body = counting;
        return this;
    }

    /** Any other body, such as one whose stream fails. */
    public TestRequests body(BodyPrefix other) {
        body = other;
        return this;
    }

    /** The in-memory body the built request reads, to ask how many bytes were pulled. */
    public CountingBodyPrefix bodyPrefix() {
        return counting;
    }

    public RequestView build() {
        String m = method;
        String p = rawPath;
        Map<String, String> params = Map.copyOf(pathParameters);
        Map<String, List<String>> hs = Map.copyOf(headers);
        Map<String, String> q = Map.copyOf(query);
        Map<String, String> c = Map.copyOf(cookies);
        BodyPrefix b = body;
        return new RequestView() {
            @Override public String method() { return m; }
            @Override public String rawPath() { return p; }
            @Override public Optional<String> pathParameter(String name) { return Optional.ofNullable(params.get(name)); }
            @Override public Optional<String> header(String name) { return headerValues(name).stream().findFirst(); }
            @Override public List<String> headerValues(String name) {
                return hs.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            }
            @Override public Optional<String> queryParameter(String name) { return Optional.ofNullable(q.get(name)); }
            @Override public Optional<String> cookie(String name) { return Optional.ofNullable(c.get(name)); }
            @Override public BodyPrefix body() { return b; }
        };
    }
}
