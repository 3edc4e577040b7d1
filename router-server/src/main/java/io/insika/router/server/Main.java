package io.insika.router.server;

import java.util.List;

import io.insika.router.server.cli.CommandLine;

/** The {@code insika-router} command: see {@code insika-router --help}. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        // exit explicitly: a stopped server may leave non-daemon threads that would keep the JVM up
        System.exit(CommandLine.run(List.of(args)));
    }
}
