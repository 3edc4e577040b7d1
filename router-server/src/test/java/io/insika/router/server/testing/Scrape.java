package io.insika.router.server.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of {@code /observe/metrics}, read the way Prometheus reads the text format: each
 * sample a name, its labels and a value. Tests ask for samples by name and labels.
 */
public final class Scrape {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** A sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final String text;
    private final List<Sample> samples;

    private Scrape(String text) {
        this.text = text;
        this.samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw new AssertionError("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
            }
            samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(3))));
        }
    }

    /** Scrapes the admin port of a router on loopback. */
    public static Scrape of(int adminPort) {
        try {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + adminPort + "/observe/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("scrape answered " + response.statusCode() + ": " + response.body());
            }
            return new Scrape(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError("scrape failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * The sum of the samples of this name whose labels include these.
     *
     * @param labels name, value, name, value...
     */
    public double sum(String name, String... labels) {
        return matching(name, labels).stream().mapToDouble(Sample::value).sum();
    }

    /** The samples of this name whose labels include these. */
    public List<Sample> matching(String name, String... labels) {
        List<Sample> found = new ArrayList<>();
        for (Sample sample : samples) {
            if (sample.name().equals(name) && includes(sample.labels(), labels)) {
                found.add(sample);
            }
        }
        return found;
    }

    private static boolean includes(Map<String, String> actual, String... wanted) {
        for (int i = 0; i < wanted.length; i += 2) {
            if (!wanted[i + 1].equals(actual.get(wanted[i]))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return text;
    }
}
