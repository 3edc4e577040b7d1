package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.Backend;
import io.insika.router.server.Version;
import io.insika.router.server.testing.TempTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * {@code GET /} on the admin port, rendered by a real browser: headless Chromium loads the page,
 * runs its script against the live router and the test reads what it drew. A screenshot is left
 * in {@code target/status-page.png}.
 */
class StatusPageTest {

    private static final Path SCREENSHOT = Path.of("target", "status-page.png").toAbsolutePath();

    @RegisterExtension
    final Routers routers = new Routers();

    @Test
    void theBrowserShowsEachBackendTheRingTheVersionAndTheTraffic() throws Exception {
        RouterFixture router = routers.withBackends(2, TestProxySettings.DEFAULTS);
        for (int i = 0; i < 6; i++) {
            CLIENT.send(HttpRequest.newBuilder(router.uri("/v1/responses"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"u" + i + "\"}")).build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        String page = "http://127.0.0.1:" + router.adminPort() + "/";

        String dom = chromium("--dump-dom", page);

        for (Backend backend : router.pool.snapshot().backends()) {
            assertThat(dom, containsString("<tr data-backend=\"" + backend.id() + "\"><td>" + backend.id() + "</td><td>"
                    + backend.uri() + "</td><td class=\"up\">up</td>"));
        }
        assertThat(dom, containsString("<code id=\"ring\">" + router.pool.snapshot().fingerprint() + "</code>"));
        assertThat(dom, containsString("<code id=\"version\">" + Version.current() + "</code>"));
        assertThat(dom, containsString("<td>POST /v1/responses</td><td>key</td>"));
        assertThat(dom, containsString("<span id=\"error\"></span>")); // no failed refresh
        assertThat(dom, containsString("<span id=\"reloads\" class=\"\">none</span>"));

        Files.deleteIfExists(SCREENSHOT);
        chromium("--screenshot=" + SCREENSHOT, "--window-size=1200,700", page);
        assertThat(Files.size(SCREENSHOT), greaterThan(10_000L));
    }

    @Test
    void thePageIsSelfContainedHtml() throws Exception {
        RouterFixture router = routers.withBackends(1, TestProxySettings.DEFAULTS);
        HttpResponse<String> page = CLIENT.send(HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + router.adminPort() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(page.statusCode(), is(200));
        assertThat(page.headers().firstValue("Content-Type").orElseThrow(), is("text/html; charset=utf-8"));
        // nothing from outside the admin port: no scripts, styles or images by URL
        assertThat(page.body(), not(containsString("src=")));
        assertThat(page.body(), not(containsString("href=")));
        assertThat(page.body(), not(containsString("http://")));
        assertThat(page.body(), not(containsString("https://")));
    }

    /** Runs headless Chromium with these arguments and returns what it printed. */
    static String chromium(String... arguments) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("chromium-profile");
        try {
            return chromium(profile, arguments);
        } finally {
            TempTrees.delete(profile);
        }
    }

    private static String chromium(Path profile, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--user-data-dir=" + profile,
                // lets the page's script fetch and draw before the DOM is dumped
                "--virtual-time-budget=5000"));
        command.addAll(List.of(arguments));
        Process browser;
        try {
            browser = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new AssertionError("this test needs chromium on PATH (tools/ci-deps.sh installs it)", e);
        }
        byte[] out = browser.getInputStream().readAllBytes();
        if (!browser.waitFor(60, TimeUnit.SECONDS)) {
            browser.destroyForcibly();
            throw new AssertionError("chromium did not finish within 60 s");
        }
        assertThat("chromium exit code", browser.exitValue(), is(0));
        return new String(out, StandardCharsets.UTF_8);
    }
}
