package io.insika.router.server.interop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.insika.router.server.Router;

/** Asks a running router which backend owns a session key: {@code GET /observe/owner} on its admin port. */
final class OwnerQuery {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final Pattern BACKEND = Pattern.compile("\"backend\":\"([^\"]+)\"");

    private OwnerQuery() {
    }

    /** The owner's id, {@code 127.0.0.1:PORT} for a static backend given by URL. */
    static String ownerOf(Router router, String key) throws IOException, InterruptedException {
        HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + router.adminPort() + "/observe/owner?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
        Matcher owner = BACKEND.matcher(answer.body());
        if (answer.statusCode() != 200 || !owner.find()) {
            throw new AssertionError("the router named no owner of " + key + ": " + answer.body());
        }
        return owner.group(1);
    }
}
