package io.insika.router.server.interop;

import java.net.URISyntaxException;
import java.nio.file.Path;

import io.insika.router.server.testing.PeerProgram;

/** The backends under {@code src/test/resources/interop/}, each run by the program its platform ships. */
final class ScriptBackend {

    private ScriptBackend() {
    }

    /** Node's http module ({@code node-backend.js}); it names itself {@code name} in {@code X-Backend}. */
    static PeerProgram.Server node(Path dir, String name) {
        return PeerProgram.NODE.announcing(dir, name, script("node-backend.js"), name);
    }

    /** Python's http.server ({@code python-backend.py}): HTTP/1.0, close-delimited answers. */
    static PeerProgram.Server python(Path dir) {
        return PeerProgram.PYTHON3.announcing(dir, "python-backend", script("python-backend.py"));
    }

    private static String script(String name) {
        try {
            return Path.of(ScriptBackend.class.getResource("/interop/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
