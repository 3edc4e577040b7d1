package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.util.List;

/**
 * The outcome of one query (one address family), or of a whole resolution once
 * {@link DnsFamilies} has merged both: addresses (possibly none), or why it failed.
 */
sealed interface DnsAnswer {

    /** Answered: these are all the addresses, possibly none (the name exists, NOERROR with no data). */
    record Addresses(List<InetAddress> addresses) implements DnsAnswer {
        public Addresses {
            addresses = List.copyOf(addresses);
        }
    }

    /** No trustworthy answer (timeout, SERVFAIL, NXDOMAIN, refused...): keep what we had. */
    record Failure(String reason) implements DnsAnswer {
    }
}
