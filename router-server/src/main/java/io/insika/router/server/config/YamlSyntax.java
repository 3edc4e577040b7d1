package io.insika.router.server.config;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Turns SnakeYAML's multi-line parser failure into the one line an operator needs. */
final class YamlSyntax {

    private YamlSyntax() {
    }

    static String describe(String file, RuntimeException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
                Mark mark = yaml.getProblemMark();
                return file + ": line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ": "
                        + yaml.getProblem() + " (expected: valid YAML)";
            }
        }
        return file + ": " + oneLine(failure.getMessage()) + " (expected: valid YAML)";
    }

    private static String oneLine(String text) {
        return text == null ? "unreadable" : text.replaceAll("\\s+", " ").trim();
    }
}
