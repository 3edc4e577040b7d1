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
    /**
     * A reload applies a new value but not one that turns the key on or off (its text from or to
     * {@link #OFF}): a TLS file is reread on reload, but whether there is one decided how the
     * listener was built.
     */
    WHILE_ON,
    /** Only a restart applies it: listeners, pools and threads are built from it once. */
    RESTART;

    /** How a {@link #WHILE_ON} key prints when it is off. */
    public static final String OFF = "(none)";

    /**
     * @param key     a key marked so
     * @param running the configuration in use
     * @param next    the configuration a reload would apply
     * @return whether that reload may apply a change of the key
     */
    public boolean appliesTo(ConfigKey key, RouterConfig running, RouterConfig next) {
        return switch (this) {
            case LIVE -> true;
            case OPT_IN -> next.strategy().allowChangeOnReload();
            case WHILE_ON -> sameSide(key.text(running), key.text(next));
            case RESTART -> false;
        };
    }

    /**
     * @return whether a change of a {@link #WHILE_ON} key from one text to the other leaves it on,
     *         or off
     */
    public static boolean sameSide(String running, String next) {
        return running.equals(OFF) == next.equals(OFF);
    }
}
