package org.loommpm.cli.config;

/** The version of this build, from the jar's manifest ({@code dev} when run from classes). */
public final class Version {
    private Version() {
    }

    /** e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String current() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
