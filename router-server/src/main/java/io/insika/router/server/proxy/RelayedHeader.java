package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.helidon.common.GenericType;
import io.helidon.common.buffers.BufferData;
import io.helidon.common.mapper.MapperException;
import io.helidon.common.mapper.Value;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;

/**
 * A header field of an answer the router relays, where what Helidon 4.5 would write is not
 * what the client must get. Helidon sees and checks the field as usual; the octets written are
 * this class's:
 * <ul>
 * <li>{@link #exact}: values holding obs-text (octets 0x80 to 0xFF, RFC 9110 section 5.5) are
 *     written as the very octets the backend sent, one field line per value. Helidon writes
 *     values as US-ASCII, which would turn each such octet into {@code ?}; a proxy relays bytes,
 *     it does not change them.</li>
 * <li>{@link #unwritten}: a field Helidon insists on having (it gives every bodiless answer a
 *     {@code Content-Length}) but that must not reach the client: a 204 must not carry one
 *     (RFC 9110, section 8.6), and a HEAD answer that has no length must not claim 0.</li>
 * </ul>
 */
final class RelayedHeader implements Header {

    private final Header delegate;
    private final byte[][] values;

    private RelayedHeader(Header delegate, byte[][] values) {
        this.delegate = delegate;
        this.values = values;
    }

    /** @param values the field values, one char per octet as they were read (ISO-8859-1) */
    static RelayedHeader exact(HeaderName name, Collection<String> values) {
        return new RelayedHeader(HeaderValues.create(name, values),
                values.stream().map(v -> v.getBytes(StandardCharsets.ISO_8859_1)).toArray(byte[][]::new));
    }

    /** A field Helidon sees with this value, and that is never written. */
    static RelayedHeader unwritten(HeaderName name, String value) {
        return new RelayedHeader(HeaderValues.create(name, value), new byte[0][]);
    }

    /** Whether a value holds an octet Helidon would not write as it is. */
    static boolean needed(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) > 0x7f) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] valueBytes() {
        return values.length == 0 ? new byte[0] : values[0].clone();
    }

    @Override
    public void writeHttp1Header(BufferData buffer) {
        for (byte[] value : values) {
            buffer.write(headerName().nameBytes());
            buffer.write(':');
            buffer.write(' ');
            buffer.write(value);
            buffer.write('\r');
            buffer.write('\n');
        }
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public HeaderName headerName() {
        return delegate.headerName();
    }

    @Override
    public String get() {
        return delegate.get();
    }

    @Override
    public List<String> allValues() {
        return delegate.allValues();
    }

    @Override
    public int valueCount() {
        return delegate.valueCount();
    }

    @Override
    public boolean sensitive() {
        return delegate.sensitive();
    }

    @Override
    public boolean changing() {
        return delegate.changing();
    }

    @Override
    public <N> Value<N> as(Class<N> type) throws MapperException {
        return delegate.as(type);
    }

    @Override
    public <N> Value<N> as(GenericType<N> type) throws MapperException {
        return delegate.as(type);
    }

    @Override
    public <N> Value<N> as(Function<? super String, ? extends N> mapper) {
        return delegate.as(mapper);
    }

    @Override
    public Optional<String> asOptional() throws MapperException {
        return delegate.asOptional();
    }

    @Override
    public Value<Boolean> asBoolean() {
        return delegate.asBoolean();
    }

    @Override
    public Value<String> asString() {
        return delegate.asString();
    }

    @Override
    public Value<Integer> asInt() {
        return delegate.asInt();
    }

    @Override
    public Value<Long> asLong() {
        return delegate.asLong();
    }

    @Override
    public Value<Double> asDouble() {
        return delegate.asDouble();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
