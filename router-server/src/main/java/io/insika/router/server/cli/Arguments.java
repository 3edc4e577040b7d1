package io.insika.router.server.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.insika.router.server.cli.Invocation.Command;

/** Parses the command line; anything it does not know is a {@link UsageException}. */
final class Arguments {

    private Arguments() {
    }

    static Invocation parse(List<String> args) {
        Deque<String> rest = new ArrayDeque<>(args);
        Command command = Command.SERVE;
        if (!rest.isEmpty() && !rest.peekFirst().startsWith("-")) {
            String word = rest.removeFirst();
            command = switch (word) {
                case "serve" -> Command.SERVE;
                case "demo" -> Command.DEMO;
                case "check" -> Command.CHECK;
                case "route" -> Command.ROUTE;
                case "token" -> Command.TOKEN;
                case "help" -> Command.HELP;
                default -> throw new UsageException("unknown command: " + word);
            };
        }
        Optional<Path> config = Optional.empty();
        Optional<String> key = Optional.empty();
        OptionalInt port = OptionalInt.empty();
        boolean hmac = false;
        Optional<Path> secret = Optional.empty();
        Optional<URI> against = Optional.empty();
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            switch (arg) {
                case "--help", "-h" -> command = Command.HELP;
                case "--version" -> command = Command.VERSION;
                case "--config" -> config = Optional.of(Path.of(value(arg, rest)));
                case "--port" -> port = OptionalInt.of(port(value(arg, rest)));
                case "--hmac" -> hmac = true;
                case "--secret-file" -> secret = Optional.of(Path.of(value(arg, rest)));
                case "--against" -> against = Optional.of(adminUrl(value(arg, rest)));
                default -> {
                    if ((command == Command.ROUTE || command == Command.TOKEN) && key.isEmpty() && !arg.startsWith("-")) {
                        key = Optional.of(arg);
                    } else {
                        throw new UsageException("unknown argument: " + arg);
                    }
                }
            }
        }
        if (command == Command.ROUTE && key.isEmpty()) {
            throw new UsageException("route needs the session KEY to look up");
        }
        if (command == Command.TOKEN && key.isEmpty()) {
            throw new UsageException("token needs the actor KEY to make a token for");
        }
        if ((hmac || secret.isPresent()) && command != Command.TOKEN) {
            throw new UsageException("--hmac and --secret-file are options of token");
        }
        if (secret.isPresent() && !hmac) {
            throw new UsageException("--secret-file is the secret of --hmac tokens: add --hmac");
        }
        if (port.isPresent() && command != Command.DEMO) {
            throw new UsageException("--port is an option of demo; the router's port is server.port in the YAML");
        }
        if (config.isPresent() && command == Command.DEMO) {
            throw new UsageException("demo takes no --config: it builds its own backends");
        }
        if (against.isPresent() && command != Command.CHECK) {
            throw new UsageException("--against is an option of check");
        }
        return new Invocation(command, config, key, port, hmac, secret, against);
    }

    private static String value(String option, Deque<String> rest) {
        if (rest.isEmpty()) {
            throw new UsageException(option + " needs a value");
        }
        return rest.removeFirst();
    }

    private static URI adminUrl(String text) {
        try {
            URI uri = new URI(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            // falls through to the message below
        }
        throw new UsageException("--against: [" + text + "] (expected: a running router's admin URL, such as"
                + " http://10.0.0.5:9091)");
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new UsageException("--port: [" + text + "] (expected: 0 to 65535)");
    }
}
