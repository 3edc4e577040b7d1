package io.insika.router.server.config;

/** Whether a running router can take a change of a key's effective value without a restart. */
public enum Reload {
    /** A reload applies the new value. */
    LIVE,
    /**
     * A reload applies it only when the new configuration sets {@code strategy.allow-change-on-reload}:
     * a new strategy or new options move most sessions, so nobody should do that by accident.
     */
    OPT_IN,
    /** Only a restart applies it: listeners, pools and threads are built from it once. */
    RESTART;

    /**
     * @param next the configuration a reload would apply
     * @return whether that reload may apply a change of a key marked so
     */
    public boolean appliesTo(RouterConfig next) {
        return switch (this) {
            case LIVE -> true;
            case OPT_IN -> next.strategy().allowChangeOnReload();
            case RESTART -> false;
        };
    }
}
