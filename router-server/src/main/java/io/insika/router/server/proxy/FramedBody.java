package io.insika.router.server.proxy;

/** A request body the lean connection frames itself: whether it was read to its end. */
interface FramedBody {

    /** Whether the body was read to its end, so the connection's next bytes are the next request. */
    boolean consumed();
}
