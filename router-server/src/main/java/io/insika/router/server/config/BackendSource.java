package io.insika.router.server.config;

/**
 * Where the router's backends come from: a fixed list, or a DNS name re-resolved on an interval.
 * Exactly one source is configured; no backends at all is a static source with an empty list.
 */
public sealed interface BackendSource permits StaticBackends, DnsBackends {
}
