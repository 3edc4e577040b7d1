package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.util.Objects;

import io.insika.router.server.logging.LogFormat;

/**
 * Where the access log goes, and in which format.
 *
 * @param out    the stream (standard output when served)
 * @param format logfmt ({@code text}) or one JSON object per line
 */
public record AccessLogTarget(OutputStream out, LogFormat format) {

    public AccessLogTarget {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(format, "format");
    }
}
