package io.insika.router.server.upstream;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;

/**
 * The field names a head carries most, as Helidon spells them: a name read in one of these
 * spellings, byte for byte, is its {@link HeaderName} constant with no string made and no map
 * looked up. Any other goes through {@link HeaderNames#create}, which finds the same constant for
 * other spellings of a known name.
 */
public final class KnownNames {

    private final HeaderName[] names;
    private final byte[][] spellings;

    private KnownNames(HeaderName... names) {
        this.names = names.clone();
        this.spellings = Arrays.stream(names)
                .map(name -> name.defaultCase().getBytes(StandardCharsets.ISO_8859_1)).toArray(byte[][]::new);
    }

    /** The names in the order they are tried: the commonest first. */
    public static KnownNames of(HeaderName... names) {
        return new KnownNames(names);
    }

    /** The name in bytes[from, to), which must be a token. */
    public HeaderName name(byte[] bytes, int from, int to) {
        int length = to - from;
        for (int i = 0; i < names.length; i++) {
            byte[] spelling = spellings[i];
            if (spelling.length == length && Arrays.equals(bytes, from, to, spelling, 0, length)) {
                return names[i];
            }
        }
        return HeaderNames.create(new String(bytes, from, length, StandardCharsets.ISO_8859_1));
    }
}
