package org.loommpm.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * An OCI image layout read from its tar (what Jib's buildTar writes with format OCI): the index,
 * the one manifest, the config, and each layer's entries, with every blob's digest checked
 * against its name and every layer's uncompressed digest against the config's diff_ids.
 */
final class OciImage {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One file, directory or link of a layer. */
    record Entry(String path, int mode, long uid, long gid, long size, boolean directory, String linkTarget) {
    }

    final JsonNode index;
    final JsonNode manifest;
    final JsonNode config;
    /** Layers in order; each maps a path (without a leading "/" or "./") to its entry. */
    final List<Map<String, Entry>> layers = new ArrayList<>();
    /** The compressed size of each layer, as the manifest gives it. */
    final List<Long> layerSizes = new ArrayList<>();
    /** The uncompressed size of each layer. */
    final List<Long> layerContentSizes = new ArrayList<>();
    private final Map<String, byte[]> blobs;
    private final Map<String, String> layerFiles = new HashMap<>();

    private OciImage(Map<String, byte[]> files) throws IOException {
        this.blobs = files;
        if (!new String(require(files, "oci-layout")).contains("\"imageLayoutVersion\"")) {
            throw new IOException("oci-layout has no imageLayoutVersion");
        }
        index = JSON.readTree(require(files, "index.json"));
        manifest = JSON.readTree(blob(index.get("manifests").get(0).get("digest").asText()));
        config = JSON.readTree(blob(manifest.get("config").get("digest").asText()));
        JsonNode diffIds = config.get("rootfs").get("diff_ids");
        int i = 0;
        for (JsonNode layer : manifest.get("layers")) {
            byte[] gz = blob(layer.get("digest").asText());
            layerSizes.add((long) gz.length);
            readLayer(gz, diffIds.get(i++).asText());
        }
    }

    static OciImage read(Path tar) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(tar))) {
            for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                if (e.isFile()) {
                    files.put(strip(e.getName()), in.readAllBytes());
                }
            }
        }
        return new OciImage(files);
    }

    /** The content of a file of the image as the layers leave it (a later layer wins). */
    byte[] file(String path) throws IOException {
        String owner = layerFiles.get(path);
        if (owner == null) {
            throw new IOException("no " + path + " in the image");
        }
        return blobs.get(owner + "!" + path);
    }

    /** The entry of a path as the layers leave it, or null. */
    Entry entry(String path) {
        Entry found = null;
        for (Map<String, Entry> layer : layers) {
            found = layer.getOrDefault(path, found);
        }
        return found;
    }

    private void readLayer(byte[] gz, String diffId) throws IOException {
        byte[] tar;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            tar = in.readAllBytes();
        }
        String actual = "sha256:" + HexFormat.of().formatHex(sha256().digest(tar));
        if (!actual.equals(diffId)) {
            throw new IOException("layer " + layers.size() + ": uncompressed digest " + actual + " but diff_id " + diffId);
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        String layerKey = "layer" + layers.size();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(tar))) {
            for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                String path = strip(e.getName());
                entries.put(path, new Entry(path, e.getMode() & 07777, e.getLongUserId(), e.getLongGroupId(),
                        e.getSize(), e.isDirectory(), e.isSymbolicLink() || e.isLink() ? e.getLinkName() : null));
                if (e.isFile()) {
                    blobs.put(layerKey + "!" + path, in.readAllBytes());
                    layerFiles.put(path, layerKey);
                }
            }
        }
        layers.add(entries);
        layerContentSizes.add((long) tar.length);
    }

    private byte[] blob(String digest) throws IOException {
        byte[] b = require(blobs, "blobs/" + digest.replace(':', '/'));
        String actual = "sha256:" + HexFormat.of().formatHex(sha256().digest(b));
        if (!actual.equals(digest)) {
            throw new IOException("blob " + digest + " has digest " + actual);
        }
        return b;
    }

    private static byte[] require(Map<String, byte[]> files, String name) throws IOException {
        byte[] b = files.get(name);
        if (b == null) {
            throw new IOException("no " + name + " in the image tar");
        }
        return b;
    }

    private static String strip(String name) {
        String n = name.startsWith("./") ? name.substring(2) : name.startsWith("/") ? name.substring(1) : name;
        return n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
