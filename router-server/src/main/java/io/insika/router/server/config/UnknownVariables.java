package io.insika.router.server.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses an {@code INSIKA_ROUTER_*} variable nothing reads, naming the known one nearest to it:
 * a misspelt {@code INSIKA_ROUTER_BACKEND} would otherwise leave the YAML's backends silently in
 * place, as a misspelt YAML key would ({@link KnownKeys}). A blank one is let be: it sets nothing.
 * The value is never repeated in the message, since a misspelt secret's variable holds a secret.
 */
final class UnknownVariables {

    static final String PREFIX = "INSIKA_ROUTER_";

    private UnknownVariables() {
    }

    /** Every variable the router or its start script reads. */
    static Set<String> known() {
        Set<String> known = new TreeSet<>(EnvironmentOverrides.LAUNCHER);
        known.add(EnvironmentOverrides.CONFIG);
        known.add(EnvironmentOverrides.TOKEN_SECRET);
        Settings.all().forEach(key -> key.variable().ifPresent(known::add));
        return known;
    }

    /**
     * Adds one problem per unknown variable, in name order.
     *
     * @param environment the overrides, whose variables are looked at
     * @param problems    where each line goes
     */
    static void check(EnvironmentOverrides environment, List<String> problems) {
        Set<String> known = known();
        environment.names().stream()
                .filter(name -> name.toUpperCase(Locale.ROOT).startsWith(PREFIX) && !known.contains(name))
                .sorted()
                .forEach(name -> problems.add(name + ": unknown variable ("
                        + nearest(name, known).map(near -> "did you mean " + near + "?")
                                .orElse("the known ones are the variables of docs/configuration.md")
                        + ")"));
    }

    /**
     * The known name a typo most likely meant: the fewest edits away (a swap of two neighbours
     * is one), if that is few for its length; ties go to the first in name order.
     */
    static Optional<String> nearest(String name, Set<String> known) {
        String wanted = name.toUpperCase(Locale.ROOT).substring(PREFIX.length());
        int allowed = Math.max(2, wanted.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : new TreeSet<>(known)) {
            int distance = distance(wanted, candidate.substring(PREFIX.length()));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    // The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    // two adjacent characters each cost one.
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
