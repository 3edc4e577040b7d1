package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HeaderWriteable;
import io.helidon.http.HttpMediaType;
import io.helidon.http.ServerRequestHeaders;

/**
 * The fields of a head {@link LeanHead} parsed, as Helidon's request headers show them: one
 * {@link Header} per name, its values in the order received. Helidon's own table keeps a slot for
 * each of the ~75 names it knows, ~0.4 KB made for every request whatever it carries, a tenth of
 * what a proxied request allocated; these hold the fields in an array the size of the head, in the
 * order they came. Found by a scan while a head is small, as most are; past {@link #INDEXED} names
 * a map is kept as well, so a head of two thousand distinct names costs no more than Helidon's.
 * Filled once by the parse, then only read.
 */
final class LeanFields implements ServerRequestHeaders {

    /** Names beyond which a lookup goes through a map rather than a scan. */
    static final int INDEXED = 16;

    private Header[] fields = new Header[8];
    private int size;
    // lower-case name to the index of its field, once there are more than INDEXED names
    private Map<String, Integer> index;

    /** Adds a field line: a name seen before gets the value after the ones it had. */
    void add(HeaderName name, String value) {
        int at = indexOf(name);
        if (at >= 0) {
            Header had = fields[at];
            HeaderWriteable more = had instanceof HeaderWriteable writable ? writable : HeaderWriteable.create(had);
            fields[at] = more.addValue(value);
            return;
        }
        if (size == fields.length) {
            fields = Arrays.copyOf(fields, size * 2);
        }
        fields[size] = HeaderValues.create(name, value);
        if (index != null) {
            index.put(name.lowerCase(), size);
        } else if (size == INDEXED) {
            index = new HashMap<>();
            for (int i = 0; i <= size; i++) {
                index.put(fields[i].headerName().lowerCase(), i);
            }
        }
        size++;
    }

    @Override
    public List<String> all(HeaderName name, Supplier<List<String>> defaultSupplier) {
        int at = indexOf(name);
        return at < 0 ? defaultSupplier.get() : fields[at].allValues();
    }

    @Override
    public boolean contains(HeaderName name) {
        return indexOf(name) >= 0;
    }

    @Override
    public boolean contains(Header value) {
        int at = indexOf(value.headerName());
        return at >= 0 && fields[at].allValues().equals(value.allValues());
    }

    @Override
    public Header get(HeaderName name) {
        int at = indexOf(name);
        if (at < 0) {
            throw new NoSuchElementException("Header " + name + " is not present in these headers");
        }
        return fields[at];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public List<HttpMediaType> acceptedTypes() {
        int at = indexOf(HeaderNames.ACCEPT);
        if (at < 0) {
            return List.of();
        }
        List<HttpMediaType> types = new ArrayList<>();
        for (String accept : fields[at].allValues(true)) {
            types.add(HttpMediaType.create(accept));
        }
        Collections.sort(types);
        return types;
    }

    @Override
    public Iterator<Header> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public Header next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                return fields[next++];
            }
        };
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(fields[i].name()).append(": ").append(fields[i].values()).append('\n');
        }
        return text.toString();
    }

    // The field of this name, or -1. Two known names (Helidon's constants, whatever spelling made
    // them) are told apart by their index, any other by its lower-case text.
    private int indexOf(HeaderName name) {
        if (index != null) {
            Integer at = index.get(name.lowerCase());
            return at == null ? -1 : at;
        }
        int known = name.index();
        for (int i = 0; i < size; i++) {
            HeaderName had = fields[i].headerName();
            if (known >= 0 && had.index() >= 0 ? had.index() == known : had.lowerCase().equals(name.lowerCase())) {
                return i;
            }
        }
        return -1;
    }
}
