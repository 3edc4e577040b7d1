package io.insika.router.strategies.extract.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The key a JSON number stands for: its value as a double, written as JavaScript's
 * {@code String(n)} writes it ({@code 1.0} and {@code 1e0} are {@code 1}, {@code 1.5e3} is
 * {@code 1500}, {@code 1e21} is {@code 1e+21}).
 *
 * <p>Why the double: the key must never be finer than a backend's own idea of "the same number",
 * or one session would land on two backends. JavaScript and Go read every JSON number as a double;
 * Python and Jackson keep big integers exact but still treat {@code 1} and {@code 1.0} as one key.
 * Numbers the double merges (two 20-digit ids) may share a backend, which only costs balance.
 */
final class NumberKeyText {

    /** Integers this short are exact doubles, and a JSON integer is already written canonically. */
    private static final int EXACT_INTEGER_DIGITS = 15;

    private NumberKeyText() {
    }

    /** @param json a number token as the parser accepted it */
    static String of(String json) {
        if (isShortInteger(json)) {
            return json.equals("-0") ? "0" : json;
        }
        double value = Double.parseDouble(json);
        if (value == 0) {
            return "0"; // -0 too, as String(-0) is "0"
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        BigDecimal shortest = shortest(Math.abs(value));
        String digits = shortest.unscaledValue().toString();
        String text = layout(digits, digits.length() - shortest.scale());
        return value < 0 ? "-" + text : text;
    }

    private static boolean isShortInteger(String json) {
        int start = json.startsWith("-") ? 1 : 0;
        if (json.length() - start > EXACT_INTEGER_DIGITS) {
            return false;
        }
        for (int i = start; i < json.length(); i++) {
            if (json.charAt(i) < '0' || json.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    // ECMA-262 Number::toString: the fewest digits that read back as the same double; of two
    // candidates that long, the closer one, and of two as close, the even one.
    private static BigDecimal shortest(double value) {
        BigDecimal exact = new BigDecimal(value);
        for (int precision = 1; ; precision++) {
            // Whatever decimal of this length reads back as the value, the one just below or just
            // above the value does too: the doubles' rounding interval holds the value.
            BigDecimal below = exact.round(new MathContext(precision, RoundingMode.FLOOR));
            BigDecimal above = exact.round(new MathContext(precision, RoundingMode.CEILING));
            boolean belowFits = Double.parseDouble(below.toString()) == value;
            boolean aboveFits = Double.parseDouble(above.toString()) == value;
            if (belowFits && aboveFits) {
                int closer = exact.subtract(below).compareTo(above.subtract(exact));
                boolean evenBelow = !below.unscaledValue().testBit(0);
                return (closer < 0 || closer == 0 && evenBelow ? below : above).stripTrailingZeros();
            }
            if (belowFits || aboveFits) {
                return (belowFits ? below : above).stripTrailingZeros();
            }
        }
    }

    // The digits d1..dk times 10^(point - k), laid out as Number::toString does.
    private static String layout(String digits, int point) {
        int k = digits.length();
        if (k <= point && point <= 21) {
            return digits + "0".repeat(point - k);
        }
        if (0 < point && point <= 21) {
            return digits.substring(0, point) + "." + digits.substring(point);
        }
        if (-6 < point && point <= 0) {
            return "0." + "0".repeat(-point) + digits;
        }
        int exponent = point - 1;
        String mantissa = k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
    }
}
