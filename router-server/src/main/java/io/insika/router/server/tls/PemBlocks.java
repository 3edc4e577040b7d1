package io.insika.router.server.tls;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code -----BEGIN type-----} blocks of a PEM file, decoded: text around them (the
 * {@code Bag Attributes} openssl writes, comments) is skipped, as openssl and nginx skip it.
 */
final class PemBlocks {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");

    /** One block: its type, such as {@code CERTIFICATE}, and its DER bytes. */
    record Block(String type, byte[] der) {
    }

    private PemBlocks() {
    }

    /**
     * @param text the file's text
     * @return its blocks, in order
     * @throws IllegalArgumentException if a block's base64 does not decode
     */
    static List<Block> of(String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            try {
                blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("its " + matcher.group(1) + " block is not base64");
            }
        }
        return blocks;
    }
}
