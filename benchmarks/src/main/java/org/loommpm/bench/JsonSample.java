package org.loommpm.bench;

import java.nio.charset.StandardCharsets;

/**
 * The compression benchmarks' body: an API-style JSON array of objects, about 100 KB, the same
 * bytes on every run (no randomness: ids, names and numbers follow the index), so ratios are
 * comparable between runs and between loom-mpm's filter, nginx's {@code gzip on} and JMH.
 */
public final class JsonSample {
    private JsonSample() {
    }

    /** About {@code approxBytes} of JSON (a whole number of records, a little over). */
    public static byte[] json(int approxBytes) {
        String[] cities = {"Lisbon", "Oslo", "Nairobi", "Quito", "Osaka", "Perth", "Tunis", "Lima"};
        String[] status = {"active", "pending", "suspended"};
        StringBuilder sb = new StringBuilder(approxBytes + 256).append('[');
        for (int i = 0; sb.length() < approxBytes; i++) {
            if (i > 0) {
                sb.append(',');
            }
            long h = (i * 2654435761L) & 0xFFFFFFFFL;
            sb.append("{\"id\":").append(100000 + i)
                    .append(",\"user\":\"user").append(h % 9973).append("\"")
                    .append(",\"email\":\"user").append(h % 9973).append("@example.com\"")
                    .append(",\"city\":\"").append(cities[(int) (h % cities.length)]).append('"')
                    .append(",\"status\":\"").append(status[(int) (h % status.length)]).append('"')
                    .append(",\"balance\":").append(h % 100000).append('.').append(h % 97)
                    .append(",\"score\":").append(h % 1000)
                    .append(",\"tags\":[\"t").append(h % 13).append("\",\"t").append(h % 7).append("\"]")
                    .append(",\"created\":\"2026-0").append(1 + h % 9).append("-1").append(h % 9)
                    .append("T0").append(h % 10).append(":").append(10 + h % 50).append(":00Z\"}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Writes the 100 KB sample to a file (for the servers of compress.sh to serve). */
    public static void main(String[] args) throws java.io.IOException {
        java.nio.file.Files.write(java.nio.file.Path.of(args[0]), json(100 * 1024));
    }
}
