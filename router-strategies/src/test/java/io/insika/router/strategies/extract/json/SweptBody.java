package io.insika.router.strategies.extract.json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON body with occurrences of the top-level field {@code user} among other values, and where
 * each occurrence's name and value end, byte by byte: from those alone it says which key the cap's
 * rule gives for a cut anywhere in the body.
 *
 * @param bytes       the body: one JSON document, then whitespace, so every cut leaves bytes past the cap
 * @param occurrences the occurrences of {@code user}, in order
 */
record SweptBody(byte[] bytes, List<Occurrence> occurrences) {

    /**
     * @param nameEnd  the offset just past the name's closing quote
     * @param valueEnd the offset just past the value
     * @param number   whether the value is a number, whose end is known only from the byte after it
     * @param key      the key the value is, or {@code null}
     */
    record Occurrence(int nameEnd, int valueEnd, boolean number, String key) {
    }

    /** The occurrences, by the index of the value they follow: name, value, and key (empty for none). */
    private static final Map<Integer, List<String>> OCCURRENCES = Map.of(
            3, List.of("\"user\":", "\"alice\"", "alice"),
            10, List.of("\"user\":", "42", "42"),
            20, List.of("\"\\u0075ser\":", "\"\\u00e9t\\u00e9\"", "été"),
            30, List.of("\"user\" : ", "-1.5e3", "-1500"),
            40, List.of("\"user\":", "null", ""),
            50, List.of("\"user\":", "\"b\\\"o\\\"b\"", "b\"o\"b"),
            60, List.of("\"user\":", "true", ""),
            70, List.of("\"user\":", "{\"id\":\"x\"}", ""));

    /**
     * @param values JSON values to put between the occurrences, each as a field of its own
     */
    static SweptBody build(List<String> values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Occurrence> occurrences = new ArrayList<>();
        write(out, "{\"model\":\"m\",");
        // Puts the occurrences and the values between them across the end of the parser's first
        // buffer of 8000 bytes.
        write(out, "\"blob\":\"" + "QUJD".repeat(1_750) + "\"");
        for (int i = 0; i < values.size(); i++) {
            write(out, ",\"f" + i + "\":" + values.get(i));
            List<String> occurrence = OCCURRENCES.get(i);
            if (occurrence != null) {
                occurrences.add(occurrence(out, occurrence.get(0), occurrence.get(1), occurrence.get(2)));
            }
        }
        occurrences.add(occurrence(out, "\"user\":", "\"carol\"", "carol"));
        write(out, "}\n  ");
        return new SweptBody(out.toByteArray(), List.copyOf(occurrences));
    }

    /**
     * The key for a body cut after {@code cap} bytes: the last occurrence whose name is within the
     * cap, if its value is too; none when there is no such occurrence.
     */
    Optional<String> keyCutAt(int cap) {
        Occurrence last = null;
        for (Occurrence occurrence : occurrences) {
            if (occurrence.nameEnd() <= cap) {
                last = occurrence;
            }
        }
        if (last == null) {
            return Optional.empty();
        }
        boolean whole = last.number() ? last.valueEnd() < cap : last.valueEnd() <= cap;
        return whole && !last.key().isEmpty() ? Optional.of(last.key()) : Optional.empty();
    }

    private static Occurrence occurrence(ByteArrayOutputStream out, String name, String value, String key) {
        write(out, ",");
        String quotedName = name.substring(0, name.lastIndexOf('"') + 1);
        write(out, quotedName);
        int nameEnd = out.size();
        write(out, name.substring(quotedName.length()) + value);
        boolean number = !value.isEmpty() && (value.charAt(0) == '-' || Character.isDigit(value.charAt(0)));
        return new Occurrence(nameEnd, out.size(), number, key);
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
