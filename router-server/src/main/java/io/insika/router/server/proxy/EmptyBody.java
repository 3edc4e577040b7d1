package io.insika.router.server.proxy;

import java.io.InputStream;

import io.insika.router.api.BodyPrefix;

/** The body an extractor sees when the request has none, or its route reads none. Stateless. */
final class EmptyBody implements BodyPrefix {

    static final EmptyBody INSTANCE = new EmptyBody();

    private EmptyBody() {
    }

    @Override
    public InputStream open() {
        return InputStream.nullInputStream();
    }

    @Override
    public int limit() {
        return 0;
    }

    @Override
    public boolean exceedsLimit() {
        return false;
    }
}
