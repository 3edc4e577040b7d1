package io.insika.router.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tarball's router, with the shipped {@code jvm.options} (a 112 MiB heap that exits on
 * OutOfMemoryError) and its default limits, under the slow-body flood of issue 11: 600 clients
 * each send the head of a keyed {@code POST /v1/responses} declaring 256 KiB, then trickle the
 * body. Throughout, {@code /up} answers, other clients are served, and the process lives; the
 * peak resident size and how many of the slow requests got the retry envelope are reported.
 */
class FloodTest {

    private static final int CLIENTS = 600;
    private static final int DECLARED = 256 * 1024;
    private static final int PIECE = 2048; // 200 KiB in all: the body never ends, as a slow client's would not
    private static final long TRICKLE_MILLIS = 10_000;

    @Test
    void sixHundredSlowKeyedUploadsLeaveTheRouterAliveAndServing() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("backend-a");
             RouterProcess router = RouterProcess.start(dist, Map.of(), "--config",
                     dist.configFor(List.of(backend), "").toString()).awaitListening();
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            AtomicInteger envelopes = new AtomicInteger();
            List<Future<?>> floods = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                floods.add(clients.submit(() -> trickle(router.port(), envelopes)));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TRICKLE_MILLIS);
            int served = 0;
            while (System.nanoTime() < deadline) {
                assertEquals(200, Http.get(router.port(), "/up", Map.of()).statusCode(), "/up during the flood");
                HttpResponse<String> normal = Http.postJson(router.port(), "/v1/responses",
                        "{\"user\":\"normal-" + served + "\",\"input\":\"hi\"}");
                assertEquals(200, normal.statusCode(), "a normal request during the flood: " + normal.body());
                served++;
                RouterProcess.sleep(250);
            }
            long peakKiB = peakResidentKiB(router.pid());
            for (Future<?> flood : floods) {
                flood.get(30, TimeUnit.SECONDS);
            }
            assertTrue(router.isAlive(), "the router died: " + router.stderr());
            assertFalse(router.stderr().contains("OutOfMemoryError"), router.stderr());
            assertEquals(200, Http.get(router.port(), "/up", Map.of()).statusCode());
            assertTrue(served > 10, "normal requests served: " + served);
            ServeTest.report("flood of " + CLIENTS + " slow 256 KiB keyed uploads: peak RSS " + peakKiB / 1024
                    + " MiB, " + envelopes.get() + " answered with the envelope, " + served
                    + " normal requests served meanwhile");
        }
    }

    // Sends the head and a piece every 100 ms for the flood's length, stopping early when the
    // router answered (a refusal closes the connection).
    private static void trickle(int port, AtomicInteger envelopes) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + DECLARED + "\r\n\r\n{\"input\":\"").getBytes(StandardCharsets.US_ASCII));
            byte[] piece = "x".repeat(PIECE).getBytes(StandardCharsets.US_ASCII);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TRICKLE_MILLIS);
            while (System.nanoTime() < deadline) {
                if (in.available() > 0) {
                    if (new String(in.readNBytes(12), StandardCharsets.US_ASCII).equals("HTTP/1.1 503")) {
                        envelopes.incrementAndGet();
                    }
                    return;
                }
                out.write(piece);
                out.flush();
                Thread.sleep(100);
            }
        } catch (IOException e) {
            // reset by a router that closed after refusing: the answer was not there to read yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long peakResidentKiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
