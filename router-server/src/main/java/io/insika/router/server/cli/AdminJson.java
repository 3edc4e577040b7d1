package io.insika.router.server.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Reads one endpoint of a running router's admin port, for {@code check --against}. */
final class AdminJson {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private AdminJson() {
    }

    /**
     * @param endpoint such as {@code http://10.0.0.5:9091/observe/backends}
     * @return the body of its 200 answer; empty when it answered 404 (a router without it)
     * @throws StartupException for anything else, in a sentence an operator can act on
     */
    static Optional<String> get(URI endpoint) {
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            if (response.statusCode() != 200) {
                throw new StartupException(endpoint + " answered " + response.statusCode()
                        + ": is this a router's admin port?");
            }
            return Optional.of(response.body());
        } catch (IOException e) {
            throw new StartupException("cannot read " + endpoint + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while reading " + endpoint);
        }
    }
}
