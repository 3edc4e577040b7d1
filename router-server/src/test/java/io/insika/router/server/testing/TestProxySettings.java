package io.insika.router.server.testing;

import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.proxy.AccessLogTarget;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.session.SessionSeal;

/**
 * Proxy settings for tests: the shipped defaults (those {@code config/Settings} documents), with
 * whatever a test changes. Main code builds its settings from the configuration only.
 */
public final class TestProxySettings {

    /** The defaults: body-max-bytes 256 KiB, backend-timeout 10 s, no access log, no trusted proxy. */
    public static final ProxySettings DEFAULTS = builder().build();

    private TestProxySettings() {
    }

    /** Settings that start from {@link #DEFAULTS}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Settings that start from these. */
    public static Builder from(ProxySettings settings) {
        Builder builder = new Builder();
        builder.bodyMaxBytes = settings.bodyMaxBytes();
        builder.backendTimeout = settings.backendTimeout();
        builder.clientBodyTimeout = settings.clientBodyTimeout();
        builder.clientSendTimeout = settings.clientSendTimeout();
        builder.accessLog = settings.accessLog();
        builder.trustedProxies = settings.trustedProxies();
        builder.maxRequests = settings.maxRequests();
        builder.peekBudget = settings.peekBudget();
        builder.capacity = settings.capacity();
        builder.health = settings.health();
        builder.sessions = settings.sessions();
        builder.streamIdleTimeout = settings.streamIdleTimeout();
        builder.maxTunnels = settings.maxTunnels();
        builder.clientBodyMinRate = settings.clientBodyMinRate();
        return builder;
    }

    /** Each setting a test may change; the rest keep their defaults. */
    public static final class Builder {
        private int bodyMaxBytes = 262_144;
        private Duration backendTimeout = Duration.ofSeconds(10);
        private Duration clientBodyTimeout = ProxySettings.DEFAULT_CLIENT_BODY_TIMEOUT;
        private Duration clientSendTimeout = ProxySettings.DEFAULT_CLIENT_SEND_TIMEOUT;
        private Optional<AccessLogTarget> accessLog = Optional.empty();
        private TrustedProxies trustedProxies = TrustedProxies.NONE;
        private int maxRequests = ProxySettings.DEFAULT_MAX_REQUESTS;
        private int peekBudget = ProxySettings.DEFAULT_PEEK_BUDGET;
        private BackendCapacity capacity = BackendCapacity.UNLIMITED;
        private HealthSettings health = HealthSettings.DEFAULTS;
        private SessionSeal sessions = SessionSeal.NONE;
        private Duration streamIdleTimeout = ProxySettings.DEFAULT_STREAM_IDLE_TIMEOUT;
        private int maxTunnels = 0;
        private long clientBodyMinRate = ProxySettings.DEFAULT_CLIENT_BODY_MIN_RATE;

        private Builder() {
        }

        public Builder bodyMaxBytes(int bytes) {
            bodyMaxBytes = bytes;
            return this;
        }

        public Builder backendTimeout(Duration timeout) {
            backendTimeout = timeout;
            return this;
        }

        /** An access log written to this stream in logfmt. */
        public Builder accessLog(OutputStream out) {
            return accessLog(out, LogFormat.TEXT);
        }

        public Builder accessLog(OutputStream out, LogFormat format) {
            accessLog = Optional.of(new AccessLogTarget(out, format));
            return this;
        }

        public Builder clientBodyTimeout(Duration timeout) {
            clientBodyTimeout = timeout;
            return this;
        }

        public Builder clientSendTimeout(Duration timeout) {
            clientSendTimeout = timeout;
            return this;
        }

        public Builder trustedProxies(TrustedProxies trusted) {
            trustedProxies = trusted;
            return this;
        }

        /** max-requests and peek-budget. */
        public Builder limits(int requests, int budget) {
            maxRequests = requests;
            peekBudget = budget;
            return this;
        }

        public Builder capacity(BackendCapacity slots) {
            capacity = slots;
            return this;
        }

        /** The same backend slots for every backend. */
        public Builder capacityEverywhere(BackendLimits limits) {
            return capacity(new BackendCapacity(limits, Map.of()));
        }

        /** The default passive health, and active checks of this path. */
        public Builder healthChecks(String path, Duration interval, Duration timeout) {
            return health(new HealthSettings(HealthSettings.DEFAULT_DOWN_TIME, Optional.of(path), interval, timeout));
        }

        public Builder health(HealthSettings checks) {
            health = checks;
            return this;
        }

        public Builder sessions(SessionSeal seal) {
            sessions = seal;
            return this;
        }

        public Builder streamIdleTimeout(Duration timeout) {
            streamIdleTimeout = timeout;
            return this;
        }

        public Builder clientBodyMinRate(long bytesPerSecond) {
            clientBodyMinRate = bytesPerSecond;
            return this;
        }

        public ProxySettings build() {
            return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                    trustedProxies, maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout, maxTunnels,
                    clientBodyMinRate);
        }
    }
}
