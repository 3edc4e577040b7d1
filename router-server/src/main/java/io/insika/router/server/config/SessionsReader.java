package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.session.SessionSeal;

/**
 * Reads {@code sessions}: the secret that seals the session ids backends mint
 * ({@code secret-file}, {@code INSIKA_ROUTER_SESSION_SECRET_FILE}) and the previous one, still
 * accepted while replicas move to the new one ({@code previous-secret-file}). A route that learns
 * its key needs the secret: without it any client could pick its backend.
 */
final class SessionsReader {

    private SessionsReader() {
    }

    static SessionSeal read(SettingReader reader, List<RouteSpec> routes) {
        String file = reader.read(Settings.SESSION_SECRET_FILE).strip();
        String previous = reader.read(Settings.SESSION_PREVIOUS_SECRET_FILE).strip();
        String label = reader.label(Settings.SESSION_SECRET_FILE);
        String variable = Settings.SESSION_SECRET_FILE.variable().orElseThrow();
        if (file.isEmpty()) {
            if (!previous.isEmpty()) {
                reader.problem("sessions.previous-secret-file", previous, "absent unless sessions.secret-file is set:"
                        + " the previous secret only opens, the current one seals");
            }
            for (int i = 0; i < routes.size(); i++) {
                if (routes.get(i).learn().isPresent()) {
                    reader.problem("routes[" + i + "].learn: the router seals the backend into the session ids it"
                            + " learns, and needs a secret for that, shared by every replica: set sessions.secret-file"
                            + " (or " + variable + ") to a file of "
                            + SessionSeal.MIN_SECRET_BYTES + " bytes or more; without it any client could pick its"
                            + " backend");
                }
            }
            return SessionSeal.NONE;
        }
        try {
            return SessionSeal.read(Path.of(file), previous.isEmpty() ? Optional.empty() : Optional.of(Path.of(previous)));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            boolean aboutPrevious = !previous.isEmpty() && message.startsWith("[" + Path.of(previous) + "]");
            reader.problem((aboutPrevious ? "sessions.previous-secret-file" : label) + ": " + message);
            return SessionSeal.NONE;
        }
    }
}
