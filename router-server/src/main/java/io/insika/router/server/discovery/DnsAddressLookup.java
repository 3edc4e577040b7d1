package io.insika.router.server.discovery;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.ExtendedResolver;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Resolver;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Asks a DNS server directly for a name's A and AAAA records, with dnsjava: no JVM address cache
 * and no dnsjava cache stand between a pod's arrival and the router seeing it. Answers larger than
 * a UDP datagram are retried over TCP by dnsjava, so a large headless Service is seen whole.
 */
final class DnsAddressLookup {

    private final Name name;
    private final Resolver resolver;

    /**
     * @param name    the name, taken as fully qualified (no search domains)
     * @param server  the server to ask; empty for the system's ({@code /etc/resolv.conf})
     * @param timeout how long one query may take
     */
    DnsAddressLookup(String name, Optional<InetSocketAddress> server, Duration timeout) {
        try {
            this.name = Name.fromString(name, Name.root);
            this.resolver = server.<Resolver>map(SimpleResolver::new).orElseGet(DnsAddressLookup::systemResolver);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("backends.dns.name: [" + name + "] (expected: a DNS name)", e);
        }
        resolver.setTimeout(timeout);
    }

    /** Resolves once; both queries must be answered for the result to count. */
    DnsAnswer resolve() {
        List<InetAddress> addresses = new ArrayList<>();
        for (int type : new int[] {Type.A, Type.AAAA}) {
            Optional<String> failure = query(type, addresses);
            if (failure.isPresent()) {
                return new DnsAnswer.Failure(failure.get());
            }
        }
        return new DnsAnswer.Addresses(addresses);
    }

    /** Adds the type's addresses, or says why the query failed. */
    private Optional<String> query(int type, List<InetAddress> into) {
        Message response;
        try {
            response = resolver.send(Message.newQuery(Record.newRecord(name, type, DClass.IN)));
        } catch (IOException | RuntimeException e) {
            return Optional.of(Type.string(type) + " query failed: " + e);
        }
        int rcode = response.getRcode();
        if (rcode != Rcode.NOERROR) {
            return Optional.of(Type.string(type) + " answer " + Rcode.string(rcode));
        }
        for (Record record : response.getSection(Section.ANSWER)) {
            // a CNAME chain's records are in the answer too; only addresses count
            if (record instanceof ARecord a) {
                into.add(a.getAddress());
            } else if (record instanceof AAAARecord aaaa) {
                into.add(aaaa.getAddress());
            }
        }
        return Optional.empty();
    }

    private static Resolver systemResolver() {
        return new ExtendedResolver();
    }

    @Override
    public String toString() {
        return name + " via " + resolver;
    }
}
