package io.insika.router.server.proxy;

import java.util.NoSuchElementException;

import io.helidon.http.Headers;
import io.helidon.http.encoding.ContentDecoder;
import io.helidon.http.encoding.ContentEncoder;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.http.encoding.ContentEncodingContextConfig;

/**
 * Content coding for a proxy: every {@code Content-Encoding} is accepted and nothing is ever
 * decoded or encoded, so compressed bodies pass through as the bytes they are.
 *
 * <p>Helidon's server otherwise answers 400 to a request with a {@code Content-Encoding} it has no
 * decoder for (or to any, when decoding is switched off), and its client would decompress a
 * response it knows how to.
 */
public final class PassThroughEncoding implements ContentEncodingContext {

    public static final PassThroughEncoding INSTANCE = new PassThroughEncoding();

    private PassThroughEncoding() {
    }

    @Override
    public ContentEncodingContextConfig prototype() {
        return ContentEncodingContextConfig.builder().contentEncodingsDiscoverServices(false).buildPrototype();
    }

    @Override
    public boolean contentEncodingEnabled() {
        return false;
    }

    @Override
    public boolean contentDecodingEnabled() {
        return true;
    }

    @Override
    public boolean contentEncodingSupported(String encodingId) {
        return false;
    }

    @Override
    public boolean contentDecodingSupported(String encodingId) {
        return true;
    }

    @Override
    public ContentEncoder encoder(String encodingId) {
        throw new NoSuchElementException("a proxy encodes nothing: " + encodingId);
    }

    @Override
    public ContentDecoder decoder(String encodingId) {
        return ContentDecoder.NO_OP;
    }

    @Override
    public ContentEncoder encoder(Headers headers) {
        return ContentEncoder.NO_OP;
    }
}
