package io.insika.router.server.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.insika.router.server.cli.Invocation.Command;

/**
 * Parses the command line as other servers' do: {@code COMMAND --help}, {@code --option VALUE} or
 * {@code --option=VALUE}, {@code --} ending the options. Anything it does not know is a
 * {@link UsageException}.
 */
final class Arguments {

    private static final String END_OF_OPTIONS = "--";

    private Arguments() {
    }

    static Invocation parse(List<String> args) {
        Deque<String> rest = new ArrayDeque<>(args);
        Optional<Command> named = Optional.empty();
        if (!rest.isEmpty() && !rest.peekFirst().startsWith("-")) {
            named = Optional.of(command(rest.removeFirst()));
        }
        if (named.equals(Optional.of(Command.HELP))) {
            return help(rest);
        }
        // help wins over everything else on the line: "route --help" needs no KEY
        if (options(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            return Invocation.help(named);
        }
        Command command = named.orElse(Command.SERVE);
        Optional<Path> config = Optional.empty();
        Optional<String> key = Optional.empty();
        OptionalInt port = OptionalInt.empty();
        boolean hmac = false;
        boolean verbose = false;
        Optional<Path> secret = Optional.empty();
        Optional<URI> against = Optional.empty();
        boolean optionsEnded = false;
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            if (!optionsEnded && arg.equals(END_OF_OPTIONS)) {
                optionsEnded = true;
                continue;
            }
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                if ((command == Command.ROUTE || command == Command.TOKEN) && key.isEmpty()) {
                    key = Optional.of(arg);
                    continue;
                }
                throw new UsageException("unknown argument: " + arg);
            }
            Option option = Option.of(arg);
            switch (option.name()) {
                case "--version", "-V" -> {
                    option.flag();
                    command = Command.VERSION;
                }
                case "--config" -> config = Optional.of(Path.of(option.value(rest)));
                case "--port" -> port = OptionalInt.of(port(option.value(rest)));
                case "--hmac" -> hmac = option.flag();
                case "--verbose", "-v" -> verbose = option.flag();
                case "--secret-file" -> secret = Optional.of(Path.of(option.value(rest)));
                case "--against" -> against = Optional.of(adminUrl(option.value(rest)));
                default -> throw new UsageException("unknown option: " + arg
                        + ((command == Command.ROUTE || command == Command.TOKEN) && key.isEmpty()
                                ? " (a KEY that begins with - goes after --: insika-router " + word(command) + " -- "
                                        + arg + ")"
                                : ""));
            }
        }
        if (command == Command.VERSION) {
            return Invocation.version();
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
        if (verbose && command != Command.ROUTE && command != Command.CHECK) {
            throw new UsageException("--verbose is an option of route and check; a running router logs at"
                    + " logging.level");
        }
        return new Invocation(command, Optional.empty(), config, key, port, hmac, secret, against, verbose);
    }

    /** The word that names a command on the command line. */
    static String word(Command command) {
        return command.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static Command command(String word) {
        for (Command command : Command.values()) {
            if (word(command).equals(word)) {
                return command;
            }
        }
        throw new UsageException("unknown command: " + word);
    }

    // help [COMMAND]
    private static Invocation help(Deque<String> rest) {
        if (rest.isEmpty()) {
            return Invocation.help(Optional.empty());
        }
        String topic = rest.removeFirst();
        if (!rest.isEmpty()) {
            throw new UsageException("help takes one COMMAND at most; also given: " + String.join(" ", rest));
        }
        return Invocation.help(Optional.of(topic.equals("--help") || topic.equals("-h") ? Command.HELP : command(topic)));
    }

    // the arguments before "--": after it, even "--help" is a key
    private static java.util.stream.Stream<String> options(List<String> args) {
        int end = args.indexOf(END_OF_OPTIONS);
        return (end < 0 ? args : args.subList(0, end)).stream();
    }

    /** An option as written: {@code --name}, or {@code --name=value} with its value in the same word. */
    private record Option(String name, Optional<String> inline) {

        static Option of(String arg) {
            int equals = arg.indexOf('=');
            return arg.startsWith("--") && equals > 0
                    ? new Option(arg.substring(0, equals), Optional.of(arg.substring(equals + 1)))
                    : new Option(arg, Optional.empty());
        }

        String value(Deque<String> rest) {
            if (inline.isPresent()) {
                if (inline.get().isEmpty()) {
                    throw new UsageException(name + " needs a value");
                }
                return inline.get();
            }
            if (rest.isEmpty() || rest.peekFirst().equals(END_OF_OPTIONS)) {
                throw new UsageException(name + " needs a value");
            }
            return rest.removeFirst();
        }

        boolean flag() {
            if (inline.isPresent()) {
                throw new UsageException(name + " takes no value");
            }
            return true;
        }
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
