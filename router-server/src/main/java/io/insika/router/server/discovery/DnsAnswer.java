package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.util.List;

/** The outcome of resolving a name once: its addresses (possibly none), or why it failed. */
sealed interface DnsAnswer {

    /**
     * Both the A and the AAAA query were answered: these are all the addresses, possibly none
     * (the name exists but has no address records, NOERROR with no data).
     */
    record Addresses(List<InetAddress> addresses) implements DnsAnswer {
        public Addresses {
            addresses = List.copyOf(addresses);
        }
    }

    /** No trustworthy answer (timeout, SERVFAIL, NXDOMAIN, refused...): keep what we had. */
    record Failure(String reason) implements DnsAnswer {
    }
}
