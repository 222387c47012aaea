package org.loommpm.cli.alias;

/**
 * A rule took the request but cannot answer it safely: an {@code AliasMatch} substitution that
 * would leave its directory (403), a {@code RedirectMatch} one that would take the scheme or the
 * host of the {@code Location} from the request path (500). Carries no stack trace: a client can
 * cause it at will.
 */
public final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    Refused(int status, String why) {
        super(why, null, false, false);
        this.status = status;
    }

    /** {@return 403 or 500} */
    public int status() {
        return status;
    }
}
