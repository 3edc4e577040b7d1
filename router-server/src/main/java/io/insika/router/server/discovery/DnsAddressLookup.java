package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

    private static final Duration GUARD = Duration.ofSeconds(1);

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

    /**
     * Resolves once: asks for A and AAAA at the same time, so a failing family costs no more time
     * than one query, and answers each family on its own.
     */
    DnsAnswers resolve() {
        // dnsjava times each query out itself; this only guards against an answer that never completes
        long deadline = System.nanoTime() + resolver.getTimeout().plus(GUARD).toNanos();
        CompletableFuture<Message> a = send(Type.A);
        CompletableFuture<Message> aaaa = send(Type.AAAA);
        return new DnsAnswers(answer(Type.A, a, deadline), answer(Type.AAAA, aaaa, deadline));
    }

    private CompletableFuture<Message> send(int type) {
        try {
            return resolver.sendAsync(Message.newQuery(Record.newRecord(name, type, DClass.IN))).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The type's addresses, or why the query failed. */
    private static DnsAnswer answer(int type, CompletableFuture<Message> sent, long deadline) {
        Message response;
        try {
            response = sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            return new DnsAnswer.Failure(Type.string(type) + " query failed: " + e.getCause());
        } catch (TimeoutException e) {
            sent.cancel(true);
            return new DnsAnswer.Failure(Type.string(type) + " query failed: no answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sent.cancel(true);
            return new DnsAnswer.Failure(Type.string(type) + " query interrupted");
        }
        int rcode = response.getRcode();
        if (rcode != Rcode.NOERROR) {
            return new DnsAnswer.Failure(Type.string(type) + " answer " + Rcode.string(rcode));
        }
        List<InetAddress> addresses = new ArrayList<>();
        for (Record record : response.getSection(Section.ANSWER)) {
            // a CNAME chain's records are in the answer too; only addresses count
            if (record instanceof ARecord a) {
                addresses.add(a.getAddress());
            } else if (record instanceof AAAARecord aaaa) {
                addresses.add(aaaa.getAddress());
            }
        }
        return new DnsAnswer.Addresses(addresses);
    }

    private static Resolver systemResolver() {
        return new ExtendedResolver();
    }

    @Override
    public String toString() {
        return name + " via " + resolver;
    }
}
