package io.insika.router.server.config;

/** Where an effective configuration value came from, as {@code check} reports it. */
public enum ValueSource {
    /** Nobody set it: the built-in default (also when only the embedded default YAML was read). */
    DEFAULT,
    /** The operator's YAML file. */
    YAML,
    /** An {@code INSIKA_ROUTER_*} environment variable, which beats the YAML. */
    ENVIRONMENT
}
