package io.insika.router.server.discovery;

import java.lang.System.Logger.Level;
import java.util.stream.Collectors;

import io.insika.router.api.Backend;
import io.insika.router.server.routing.BackendSetChange;

/** The log lines every discovery writes, so operators read one format whatever the source. */
final class BackendChangeLog {

    private static final System.Logger LOGGER = System.getLogger(BackendDiscovery.class.getName());

    private BackendChangeLog() {
    }

    static void changed(String source, BackendSetChange change) {
        LOGGER.log(Level.INFO, () -> "Backends from " + source + " changed: added " + ids(change.added().stream())
                + ", removed " + ids(change.removed().stream()) + "; now " + change.current().size() + ": "
                + ids(change.current().stream()));
    }

    static void empty(String source, String why) {
        LOGGER.log(Level.WARNING, () -> "Backends from " + source + ": none (" + why
                + "); every proxied request gets the 503 retry envelope until backends appear");
    }

    static void failed(String source, String why, int kept) {
        LOGGER.log(Level.WARNING, () -> "Backends from " + source + ": resolution failed (" + why + "); keeping the last "
                + kept + " known");
    }

    static void partlyFailed(String source, String why, String failed, String answered, int kept) {
        LOGGER.log(Level.WARNING, () -> "Backends from " + source + ": " + why + "; using the " + answered
                + " answer, with the last " + kept + " known " + failed + " addresses, until " + failed + " answers again");
    }

    static void answersAgain(String source, String family) {
        LOGGER.log(Level.INFO, () -> "Backends from " + source + ": " + family + " answers again");
    }

    private static String ids(java.util.stream.Stream<Backend> backends) {
        return backends.map(Backend::id).collect(Collectors.joining(", ", "[", "]"));
    }
}
