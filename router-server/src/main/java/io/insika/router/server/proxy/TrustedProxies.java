package io.insika.router.server.proxy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The peers whose forwarding headers ({@code X-Forwarded-*}, {@code Forwarded} and the other
 * {@link ForwardingClaims}) the router believes: load balancers and ingresses in front of it, as
 * CIDR blocks (nginx's {@code set_real_ip_from}, Envoy's trusted hops). From any other peer those
 * headers are a client's claim: the router writes its own {@code X-Forwarded-*} and drops the
 * rest. Empty (the default) trusts nobody.
 */
public final class TrustedProxies {

    /** Trusts no peer. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of(), List.of(), List.of());

    private final List<byte[]> networks;
    private final List<Integer> prefixes;
    private final List<String> texts;

    private TrustedProxies(List<byte[]> networks, List<Integer> prefixes, List<String> texts) {
        this.networks = networks;
        this.prefixes = prefixes;
        this.texts = texts;
    }

    /**
     * Parses CIDR blocks ({@code 10.0.0.0/8}, {@code fd00::/8}) or single addresses.
     *
     * @throws IllegalArgumentException naming the first entry that is not an address literal with
     *                                  an optional prefix length in range
     */
    public static TrustedProxies parse(List<String> cidrs) {
        List<byte[]> networks = new java.util.ArrayList<>();
        List<Integer> prefixes = new java.util.ArrayList<>();
        for (String entry : cidrs) {
            String text = entry.strip();
            int slash = text.indexOf('/');
            String address = slash < 0 ? text : text.substring(0, slash);
            byte[] bytes = literal(address, entry);
            int prefix = bytes.length * 8;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(text.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefix = -1;
                }
                if (prefix < 0 || prefix > bytes.length * 8) {
                    throw new IllegalArgumentException("[" + entry + "] (expected: a prefix length from 0 to "
                            + bytes.length * 8 + ")");
                }
            }
            networks.add(bytes);
            prefixes.add(prefix);
        }
        return new TrustedProxies(List.copyOf(networks), List.copyOf(prefixes), List.copyOf(cidrs));
    }

    // Only literals: a host name here would be resolved once, at start, and silently go stale.
    private static byte[] literal(String address, String entry) {
        boolean looksLiteral = !address.isEmpty()
                && (address.indexOf(':') >= 0 || address.chars().allMatch(c -> c == '.' || Character.isDigit(c)));
        if (looksLiteral) {
            try {
                return InetAddress.getByName(address).getAddress();
            } catch (UnknownHostException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("[" + entry + "] (expected: an IPv4 or IPv6 address, or a CIDR block"
                + " such as 10.0.0.0/8)");
    }

    /** Whether nobody is trusted. */
    public boolean isEmpty() {
        return networks.isEmpty();
    }

    /** The blocks as configured. */
    public List<String> entries() {
        return texts;
    }

    /** Whether this peer is a trusted proxy. */
    boolean trusts(SocketAddress peer) {
        if (networks.isEmpty() || !(peer instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return false;
        }
        byte[] address = inet.getAddress().getAddress();
        for (int i = 0; i < networks.size(); i++) {
            if (matches(networks.get(i), prefixes.get(i), address)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(byte[] network, int prefix, byte[] address) {
        if (network.length != address.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (network[i] != address[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (network[full] & mask) == (address[full] & mask);
    }

    @Override
    public String toString() {
        return String.join(",", texts);
    }
}
