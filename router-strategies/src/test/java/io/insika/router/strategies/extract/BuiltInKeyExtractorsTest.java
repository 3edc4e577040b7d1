package io.insika.router.strategies.extract;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import io.insika.router.api.BodyPrefix;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RequestView;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.is;

class BuiltInKeyExtractorsTest {

    private static final Map<String, PluginOptions> VALID_OPTIONS = Map.of(
            "json-field", PluginOptions.of("field", "user"),
            "header", PluginOptions.of("name", "x-sigx-actor-route"),
            "query", PluginOptions.of("name", "stickyId"),
            "cookie", PluginOptions.of("name", "session"),
            "path-segment", PluginOptions.of("template", "/r/{token}/*", "parameter", "token"));

    @Test
    void serviceLoaderFindsTheFiveBuiltInTypes() {
        assertThat(providers().stream().map(KeyExtractorProvider::type).toList(),
                containsInAnyOrder("json-field", "header", "query", "cookie", "path-segment"));
    }

    @Test
    void onlyJsonFieldNeedsTheBody() {
        for (KeyExtractorProvider provider : providers()) {
            boolean needsBody = provider.create(VALID_OPTIONS.get(provider.type())).needsBody();
            assertThat(provider.type(), needsBody, is(provider.type().equals("json-field")));
        }
    }

    @Test
    void noExtractorThrowsWhenTheRequestViewItselfFails() {
        for (KeyExtractorProvider provider : providers()) {
            Optional<String> key = provider.create(VALID_OPTIONS.get(provider.type())).extract(new FailingRequestView());
            assertThat(provider.type(), key, is(Optional.empty()));
        }
    }

    private static List<KeyExtractorProvider> providers() {
        return ServiceLoader.load(KeyExtractorProvider.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    // A router bug or a dying connection must still end in "no key", not in a failed request.
    private static final class FailingRequestView implements RequestView {
        @Override public String method() { throw new IllegalStateException("method"); }
        @Override public String rawPath() { throw new IllegalStateException("rawPath"); }
        @Override public Optional<String> pathParameter(String name) { throw new IllegalStateException("path"); }
        @Override public Optional<String> header(String name) { throw new IllegalStateException("header"); }
        @Override public List<String> headerValues(String name) { throw new IllegalStateException("headers"); }
        @Override public Optional<String> queryParameter(String name) { throw new IllegalStateException("query"); }
        @Override public Optional<String> cookie(String name) { throw new IllegalStateException("cookie"); }
        @Override public BodyPrefix body() { throw new IllegalStateException("body"); }
    }
}
