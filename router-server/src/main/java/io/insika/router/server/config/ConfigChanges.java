package io.insika.router.server.config;

import java.util.List;

/**
 * The keys on which two configurations disagree, as a reload needs to know them: which changed,
 * and which of those a running router cannot take without a restart.
 *
 * @param changed     every key whose effective value differs, in {@link Settings#all()} order
 * @param needRestart those among them a reload cannot apply: {@link Reload#RESTART} keys,
 *                    {@link Reload#WHILE_ON} ones turned on or off, and {@link Reload#OPT_IN}
 *                    ones unless the new configuration opts in
 */
public record ConfigChanges(List<ConfigKey> changed, List<ConfigKey> needRestart) {

    public ConfigChanges {
        changed = List.copyOf(changed);
        needRestart = List.copyOf(needRestart);
    }

    /**
     * @param running the configuration in use
     * @param next    the one a reload would apply
     * @return where they differ
     */
    public static ConfigChanges between(RouterConfig running, RouterConfig next) {
        List<ConfigKey> changed = Settings.all().stream().filter(key -> key.differs(running, next)).toList();
        return new ConfigChanges(changed, changed.stream()
                .filter(key -> !key.reload().appliesTo(key, running, next)).toList());
    }

    /** @return whether a reload can apply every change */
    public boolean reloadable() {
        return needRestart.isEmpty();
    }

    /** @return whether nothing differs */
    public boolean isEmpty() {
        return changed.isEmpty();
    }

    /** @return the changed keys only a restart applies, whatever the new file says */
    public List<ConfigKey> restartOnly() {
        return needRestart.stream().filter(key -> key.reload() != Reload.OPT_IN).toList();
    }

    /** @return whether the strategy or its options change: most sessions would move */
    public boolean changesStrategy() {
        return changed.stream().anyMatch(key -> key.reload() == Reload.OPT_IN);
    }

    /** @return the changed keys' names, such as {@code routes, proxy.backend-timeout} */
    public String names() {
        return changed.stream().map(ConfigKey::key).collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * How keys change, for one log line: {@code server.port: 9090 -> 9095}, or only the key's
     * name when its values are too long to read there (a whole route table).
     *
     * @param keys    some of the changed keys
     * @param running the configuration in use
     * @param next    the one that would replace it
     */
    public static String describe(List<ConfigKey> keys, RouterConfig running, RouterConfig next) {
        return keys.stream().map(key -> {
            String before = key.text(running);
            String after = key.text(next);
            return before.length() + after.length() <= 80 ? key.key() + ": " + before + " -> " + after
                    : key.key() + " changed";
        }).collect(java.util.stream.Collectors.joining("; "));
    }
}
