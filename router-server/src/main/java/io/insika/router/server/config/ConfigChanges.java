package io.insika.router.server.config;

import java.util.List;

/**
 * The keys on which two configurations disagree, as a reload needs to know them: which changed,
 * and which of those a running router cannot take without a restart.
 *
 * @param changed     every key whose effective value differs, in {@link Settings#all()} order
 * @param needRestart those among them a reload cannot apply: {@link Reload#RESTART} keys, and
 *                    {@link Reload#OPT_IN} ones unless the new configuration opts in
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
        return new ConfigChanges(changed, changed.stream().filter(key -> !key.reload().appliesTo(next)).toList());
    }

    /** @return whether a reload can apply every change */
    public boolean reloadable() {
        return needRestart.isEmpty();
    }
}
