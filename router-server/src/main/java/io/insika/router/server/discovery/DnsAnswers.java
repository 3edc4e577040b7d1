package io.insika.router.server.discovery;

import java.util.Objects;

/**
 * One resolution's two answers, each on its own: a failure of one family says nothing about the
 * other's records.
 *
 * @param a    the A query's outcome
 * @param aaaa the AAAA query's outcome
 */
record DnsAnswers(DnsAnswer a, DnsAnswer aaaa) {

    DnsAnswers {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(aaaa, "aaaa");
    }
}
