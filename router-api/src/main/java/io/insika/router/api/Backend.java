package io.insika.router.api;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One backend the router can send requests to.
 *
 * <p>A backend's identity for placement is its {@link #id() id}: by default its canonical
 * {@code host:port}, or the member id the cluster behind it uses for itself, when the operator
 * gives one, so that the router hashes over the very ids the cluster places by. A strategy
 * hashes the id, never the backend's position in a list, so two routers that see the same
 * backends in any order place every key identically. Two backends with the same id are the
 * same backend.
 *
 * <p>Instances are immutable and safe to share between threads.
 *
 * @param id            what strategies hash: by default the canonical {@code host:port} (the
 *                      host lower-cased, an IPv6 literal in brackets, {@code [::1]:8080}), or an
 *                      explicit placement id of 1 to 255 visible ASCII characters
 * @param uri           where requests are sent: {@code http} or {@code https}, host and port,
 *                      no path, query or fragment
 * @param weight        relative share of the keys this backend should own, at least 1
 *                      (default 1)
 * @param publicAddress the address a client may be redirected to, if the operator published
 *                      one; never guessed from {@code uri}
 */
public record Backend(String id, URI uri, int weight, Optional<URI> publicAddress) {

    /** The weight a backend has when none is given. */
    public static final int DEFAULT_WEIGHT = 1;

    /** The longest placement id. */
    public static final int MAX_ID_LENGTH = 255;

    /**
     * Validates the parts.
     *
     * @throws IllegalArgumentException if the URI is not {@code http(s)://host:port}, the id is
     *                                  not 1 to 255 visible ASCII characters, or the weight is
     *                                  below 1
     */
    public Backend {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(publicAddress, "publicAddress");
        canonicalId(uri);
        if (!isPlacementId(id)) {
            throw new IllegalArgumentException("id: [" + id + "] (expected: 1 to " + MAX_ID_LENGTH
                    + " visible ASCII characters, no space)");
        }
        if (weight < 1) {
            throw new IllegalArgumentException("weight: [" + weight + "] (expected: >= 1)");
        }
    }

    /**
     * A backend of weight 1 with no public address.
     *
     * @param uri {@code http(s)://host:port}
     * @return the backend
     * @throws IllegalArgumentException if the URI is not {@code http(s)://host:port}
     */
    public static Backend of(URI uri) {
        return of(uri, DEFAULT_WEIGHT);
    }

    /**
     * A backend with the given weight and no public address.
     *
     * @param uri    {@code http(s)://host:port}
     * @param weight at least 1
     * @return the backend
     * @throws IllegalArgumentException if the URI is not {@code http(s)://host:port} or the weight
     *                                  is below 1
     */
    public static Backend of(URI uri, int weight) {
        return new Backend(canonicalId(uri), uri, weight, Optional.empty());
    }

    /**
     * Parses {@code http(s)://host:port} into a backend of weight 1.
     *
     * @param uri the URI text
     * @return the backend
     * @throws IllegalArgumentException if the text is not {@code http(s)://host:port}
     */
    public static Backend parse(String uri) {
        try {
            return of(new URI(Objects.requireNonNull(uri, "uri").trim()));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("backend: [" + uri + "] (expected: http(s)://host:port)", e);
        }
    }

    /**
     * This backend with another weight.
     *
     * @param newWeight at least 1
     * @return a backend equal to this one but for the weight
     */
    public Backend withWeight(int newWeight) {
        return new Backend(id, uri, newWeight, publicAddress);
    }

    /**
     * This backend with a public address, the one a redirect would send a client to.
     *
     * @param address the published address
     * @return a backend equal to this one but for the public address
     */
    public Backend withPublicAddress(URI address) {
        return new Backend(id, uri, weight, Optional.of(address));
    }

    /**
     * This backend placed under another id: the one its cluster knows it by.
     *
     * @param placementId 1 to 255 visible ASCII characters
     * @return a backend equal to this one but for the id
     * @throws IllegalArgumentException if the id is not of that form
     */
    public Backend withId(String placementId) {
        return new Backend(placementId, uri, weight, publicAddress);
    }

    /**
     * Whether a text can be a placement id: 1 to 255 characters from {@code !} to {@code ~}.
     *
     * @param id the text
     * @return whether it can
     */
    public static boolean isPlacementId(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '!' || c > '~') {
                return false;
            }
        }
        return true;
    }

    /** The host of the URI, without IPv6 brackets. */
    public String host() {
        String host = uri.getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port of the URI. */
    public int port() {
        return uri.getPort();
    }

    /**
     * The canonical {@code host:port} of a backend URI.
     *
     * @param uri {@code http(s)://host:port} with nothing after the port but an optional {@code /}
     * @return {@code host:port}, the host lower-cased, an IPv6 literal kept in brackets
     * @throws IllegalArgumentException if the URI is not of that form
     */
    public static String canonicalId(URI uri) {
        Objects.requireNonNull(uri, "uri");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getPort() < 1
                || uri.getPort() > 65535 || !bare) {
            throw new IllegalArgumentException("backend: [" + uri + "] (expected: http(s)://host:port)");
        }
        return uri.getHost().toLowerCase(Locale.ROOT) + ":" + uri.getPort();
    }

    @Override
    public String toString() {
        String text = id.equals(canonicalId(uri)) ? uri.toString() : uri + " (id " + id + ")";
        return weight == DEFAULT_WEIGHT ? text : text + " (weight " + weight + ")";
    }
}
