package io.insika.router.server.proxy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.api.BodyPrefix;
import io.insika.router.api.RequestView;

/**
 * What a key extractor sees of a Helidon request. Every accessor swallows parse failures of
 * hostile input (a malformed escape, a broken cookie header) as "absent", because extractors
 * must never throw and should not have to guard against the view.
 */
final class IncomingRequestView implements RequestView {

    private final HttpPrologue prologue;
    private final String path;
    private final ServerRequestHeaders headers;
    private final Map<String, String> pathParameters;
    private final BodyPrefix body;

    /** @param path the path in origin and normal form ({@link RequestTarget#normalPath}) */
    IncomingRequestView(HttpPrologue prologue, String path, ServerRequestHeaders headers,
                        Map<String, String> pathParameters, BodyPrefix body) {
        this.prologue = prologue;
        this.path = path;
        this.headers = headers;
        this.pathParameters = pathParameters;
        this.body = body;
    }

    @Override
    public String method() {
        return prologue.method().text();
    }

    @Override
    public String rawPath() {
        return path;
    }

    @Override
    public Optional<String> pathParameter(String name) {
        return Optional.ofNullable(pathParameters.get(name));
    }

    @Override
    public Optional<String> header(String name) {
        return headers.first(HeaderNames.create(name));
    }

    @Override
    public List<String> headerValues(String name) {
        return headers.values(HeaderNames.create(name));
    }

    @Override
    public Optional<String> queryParameter(String name) {
        try {
            return prologue.query().first(name).asOptional();
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<String> cookie(String name) {
        try {
            return headers.cookies().first(name).asOptional().map(IncomingRequestView::unquote);
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
    }

    @Override
    public BodyPrefix body() {
        return body;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
