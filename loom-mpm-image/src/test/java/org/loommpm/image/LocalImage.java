package org.loommpm.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.ImagePullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * The image the build wrote (target/loom-mpm-image.tar), loaded into the local Docker daemon
 * once per JVM, and the containers the tests make of it. Nothing is pulled: the image comes from
 * the tar, and every container is created with a pull policy that never pulls.
 *
 * <p>The tar is an OCI image layout. Docker 25 and later load it as it is; earlier daemons
 * (Debian 12's docker.io is 20.10) read only the docker-archive index, {@code manifest.json}.
 * When the daemon did not take the tar as it is, a copy with that index added
 * (target/loom-mpm-image.docker.tar: the same blobs, the OCI index kept, so both kinds of daemon
 * load it) is loaded instead. Either way the loaded image must be the built one: its id is the
 * config's digest (or, in a containerd image store, the manifest's) that Jib recorded.
 */
final class LocalImage {
    /** Containers are made only of what is loaded here. */
    static final ImagePullPolicy NEVER_PULL = name -> false;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static DockerImageName loaded;

    private LocalImage() {
    }

    static synchronized DockerImageName load() throws IOException {
        if (loaded != null) {
            return loaded;
        }
        Path tar = Path.of(System.getProperty("image.tar"));
        Path target = tar.getParent();
        String tag = "loom-mpm:" + System.getProperty("image.version");
        List<String> ids = List.of(Files.readString(target.resolve("jib-image.id")).strip(),
                Files.readString(target.resolve("jib-image.digest")).strip());
        DockerClient docker = DockerClientFactory.instance().client();
        // Untagged first, so that an image left by an earlier run cannot pass for this one.
        try {
            docker.removeImageCmd(tag).withForce(true).withNoPrune(false).exec();
        } catch (DockerException e) {
            // not there
        }
        long t0 = System.nanoTime();
        String how;
        String failure = load(docker, tar);
        String direct = idOf(docker, tag);
        if (direct != null && ids.contains(direct)) {
            how = "the OCI layout as built";
        } else {
            Path archive = target.resolve("loom-mpm-image.docker.tar");
            withDockerIndex(tar, archive, tag);
            String again = load(docker, archive);
            String id = idOf(docker, tag);
            if (id == null || !ids.contains(id)) {
                throw new IOException("the daemon did not load " + tag + " from " + tar + " (" + failure + ") nor from "
                        + archive + " (" + again + "): " + (id == null ? "no such image" : "its id is " + id)
                        + ", expected one of " + ids);
            }
            how = archive.getFileName() + " (the OCI layout plus manifest.json; this daemon did not load the layout"
                    + (failure != null ? ": " + failure : "") + ")";
        }
        System.out.printf("docker load: %s as %s in %d ms, from %s%n", tag, ids.get(0),
                (System.nanoTime() - t0) / 1_000_000, how);
        loaded = DockerImageName.parse(tag);
        return loaded;
    }

    /** A container of the image as a deployment would run it: read-only root, a tmpfs on /tmp,
     *  the configuration directory and the docroot as read-only volumes. */
    static GenericContainer<?> container(DockerImageName image, Path conf, Path htdocs) {
        return new GenericContainer<>(image)
                .withImagePullPolicy(NEVER_PULL)
                .withFileSystemBind(conf.toString(), "/etc/loom-mpm", BindMode.READ_ONLY)
                .withFileSystemBind(htdocs.toString(), "/srv/loom-mpm/htdocs", BindMode.READ_ONLY)
                .withTmpFs(Map.of("/tmp", "rw,size=64m"))
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withReadonlyRootfs(true));
    }

    /** Publishes the container's 8080 on 127.0.0.1 only (a random port), not on every address. */
    static GenericContainer<?> publishedOnLoopback(GenericContainer<?> c) {
        return c.withExposedPorts(8080).withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(
                new PortBinding(Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(8080))));
    }

    /** A fresh directory under target/containers the container's account (65532) can read. */
    static Path directory(String name, Map<String, String> files) throws IOException {
        Path dir = Path.of(System.getProperty("image.tar")).getParent().resolve("containers")
                .resolve(name + "-" + System.nanoTime());
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (var f : files.entrySet()) {
            write(dir.resolve(f.getKey()), f.getValue());
        }
        return dir;
    }

    /** Replaces a file as an editor or a ConfigMap update would: a new file renamed over it. */
    static void write(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".new");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String load(DockerClient docker, Path tar) throws IOException {
        try (InputStream in = Files.newInputStream(tar)) {
            docker.loadImageCmd(in).exec();
            return null;
        } catch (DockerException e) {
            return e.getMessage().strip();
        }
    }

    private static String idOf(DockerClient docker, String tag) {
        try {
            return docker.inspectImageCmd(tag).exec().getId();
        } catch (DockerException e) {
            return null;
        }
    }

    /**
     * Copies the OCI layout {@code from} to {@code to} with a docker-archive {@code manifest.json}
     * added: the config and the layers named by their blob paths, and the tag.
     */
    static void withDockerIndex(Path from, Path to, String tag) throws IOException {
        Map<String, byte[]> small = new HashMap<>();
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(from));
             TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tmp))) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                String name = e.getName().startsWith("./") ? e.getName().substring(2) : e.getName();
                if (name.equals("manifest.json")) {
                    continue;
                }
                out.putArchiveEntry(e);
                if (e.isFile() && e.getSize() <= 1 << 16) {
                    byte[] b = in.readAllBytes();
                    small.put(name, b);
                    out.write(b);
                } else if (e.isFile()) {
                    in.transferTo(out);
                }
                out.closeArchiveEntry();
            }
            JsonNode index = JSON.readTree(small.get("index.json"));
            JsonNode manifest = JSON.readTree(small.get(blobPath(index.get("manifests").get(0).get("digest").asText())));
            var entry = JSON.createObjectNode();
            entry.put("Config", blobPath(manifest.get("config").get("digest").asText()));
            entry.putArray("RepoTags").add(tag);
            var layers = entry.putArray("Layers");
            manifest.get("layers").forEach(l -> layers.add(blobPath(l.get("digest").asText())));
            byte[] json = JSON.writeValueAsBytes(JSON.createArrayNode().add(entry));
            TarArchiveEntry m = new TarArchiveEntry("manifest.json");
            m.setSize(json.length);
            m.setMode(0644);
            out.putArchiveEntry(m);
            out.write(json);
            out.closeArchiveEntry();
        }
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String blobPath(String digest) {
        return "blobs/" + digest.replace(':', '/');
    }
}
