package io.insika.router.server.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import io.insika.router.server.ServerSettings;

/**
 * Checks that a port is free before the server binds it: Helidon reports a busy port as an
 * ERROR with a stack trace and a stopped server, where a user needs one line saying which port.
 */
final class FreePort {

    private FreePort() {
    }

    /** The proxy's port on its host, and the admin port on its own host. */
    static void requireBoth(ServerSettings server) {
        require(server.host(), server.port(), "server.port");
        require(server.adminHost(), server.adminPort(), "server.admin-port");
    }

    /** Throws a {@link StartupException} naming the setting when the port cannot be bound. */
    static void require(String host, int port, String setting) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new StartupException(setting + ": port " + port + " on " + host + " is not available ("
                    + e.getMessage() + ")");
        }
    }
}
