package io.insika.router.distribution;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an unpacked image's entrypoint the way a container runtime with
 * {@code readOnlyRootFilesystem} would, on the host's network (so backends on 127.0.0.1 are
 * reachable): in a mount namespace of its own ({@code unshare --mount}) the root file system is
 * bind-mounted onto itself read-only, {@code /proc} and {@code /dev} are mounted in it, and
 * {@code chroot --userspec} enters it as the image's user, in its working directory, with
 * exactly its environment plus the given variables. Needs root. Every step of the way is an
 * exec, so the process the test holds is, in the end, the router's JVM: SIGTERM reaches it.
 */
final class ImageContainer {

    /** $1 rootfs, $2 user, $3 working directory, then the command; the host's tools, the image's PATH. */
    private static final String ENTER = """
            set -e
            image_path=$PATH
            PATH=/usr/sbin:/usr/bin:/sbin:/bin
            rootfs=$1 user=$2 workdir=$3
            shift 3
            mount --bind "$rootfs" "$rootfs"
            mount -o remount,bind,ro "$rootfs"
            mount -t proc proc "$rootfs/proc"
            mount --rbind /dev "$rootfs/dev"
            chroot=$(command -v chroot)
            PATH=$image_path
            exec "$chroot" --userspec="$user" "$rootfs" /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"
            """;

    private ImageContainer() {
    }

    static RouterProcess start(OciImage image, Path rootfs, Map<String, String> env, String... args) {
        Map<String, Object> config = image.runConfig();
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "/bin/sh", "-c", ENTER, "enter",
                rootfs.toString(), (String) config.get("User"), (String) config.get("WorkingDir")));
        OciImage.list(config.get("Entrypoint")).forEach(part -> command.add((String) part));
        if (args.length > 0) {
            command.addAll(List.of(args));
        } else if (config.get("Cmd") != null) {
            OciImage.list(config.get("Cmd")).forEach(part -> command.add((String) part));
        }
        Map<String, String> environment = new LinkedHashMap<>(image.environment());
        environment.putAll(env);
        return RouterProcess.start(command, environment);
    }
}
