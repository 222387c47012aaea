package org.loommpm.proxy;

/** How a {@link Balancer} chooses among its usable members (httpd's {@code lbmethod=}). */
public enum LbMethod {
    /**
     * Weighted request counting (mod_lbmethod_byrequests): each member's credit grows by its
     * {@code loadfactor} per choice, the member with the most credit is chosen and pays the total;
     * over time each member gets requests in proportion to its loadfactor.
     */
    BYREQUESTS,
    /**
     * Fewest requests in flight (mod_lbmethod_bybusyness): the member with the fewest exchanges
     * in progress, ties broken as {@link #BYREQUESTS} does.
     */
    BYBUSYNESS
}
