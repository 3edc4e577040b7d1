package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.insika.router.server.discovery.DnsAnswer.Addresses;
import io.insika.router.server.discovery.DnsAnswer.Failure;

/**
 * Merges each resolution's A and AAAA answers, the two families on their own: a family whose
 * query failed counts with the addresses it last answered, so its failure never discards the
 * other family's answer (a dnsmasq that refuses AAAA while it serves the A records). If that
 * leaves no address at all, the resolution fails as a whole and the pool keeps its last set, as
 * when both queries fail: an empty answer beside a failure cannot be trusted to mean "no pods".
 * One discovery's resolutions use it, one at a time.
 */
final class DnsFamilies {

    private final String source;
    private List<InetAddress> ipv4 = List.of();
    private List<InetAddress> ipv6 = List.of();
    /** The family whose lasting failure was warned of, so it is warned of once, not every interval. */
    private Optional<String> failing = Optional.empty();

    DnsFamilies(String source) {
        this.source = source;
    }

    /** The addresses to use now, or why the resolution failed and the last set stays. */
    DnsAnswer merge(DnsAnswers answers) {
        return switch (answers) {
            case DnsAnswers(Addresses a, Addresses aaaa) -> {
                failing.ifPresent(family -> BackendChangeLog.answersAgain(source, family));
                failing = Optional.empty();
                yield use(a.addresses(), aaaa.addresses());
            }
            case DnsAnswers(Addresses a, Failure aaaa) -> partly(aaaa, "AAAA", "A", a.addresses(), ipv6);
            case DnsAnswers(Failure a, Addresses aaaa) -> partly(a, "A", "AAAA", ipv4, aaaa.addresses());
            case DnsAnswers(Failure a, Failure aaaa) -> {
                failing = Optional.empty();
                yield new Failure(a.reason() + "; " + aaaa.reason());
            }
        };
    }

    private DnsAnswer partly(Failure failure, String failed, String answered, List<InetAddress> nextIpv4,
                             List<InetAddress> nextIpv6) {
        if (nextIpv4.isEmpty() && nextIpv6.isEmpty()) {
            failing = Optional.empty();
            return new Failure(failure.reason() + "; the " + answered + " answer has no records");
        }
        if (!failing.equals(Optional.of(failed))) {
            int kept = (failed.equals("A") ? nextIpv4 : nextIpv6).size();
            BackendChangeLog.partlyFailed(source, failure.reason(), failed, answered, kept);
            failing = Optional.of(failed);
        }
        return use(nextIpv4, nextIpv6);
    }

    private DnsAnswer use(List<InetAddress> nextIpv4, List<InetAddress> nextIpv6) {
        ipv4 = nextIpv4;
        ipv6 = nextIpv6;
        return new Addresses(Stream.concat(nextIpv4.stream(), nextIpv6.stream()).toList());
    }
}
