package org.loommpm.cli.config;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The directives a configuration may use, by case-insensitive name, each with its argument
 * count, the contexts it may appear in, and the action that applies it. Modules add theirs with
 * {@link #register}: TLS and HTTP/2 directives plug in here without touching the parser.
 */
public final class DirectiveTable {
    /** Where a directive may appear. */
    public enum Context {
        /** The top level of a file. */
        SERVER,
        /** Inside {@code <Location>}. */
        LOCATION,
        /** Inside {@code <Proxy balancer://name>}. */
        PROXY
    }

    /** Applies one directive line to the parse state. */
    @FunctionalInterface
    public interface Action {
        /**
         * @throws ConfigException if an argument is invalid (use {@link ConfigLine#error})
         */
        void apply(ParseState state, ConfigLine line) throws ConfigException;
    }

    /**
     * One directive.
     *
     * @param name the canonical spelling
     * @param minArgs fewest arguments
     * @param maxArgs most arguments ({@code Integer.MAX_VALUE} for a list)
     * @param contexts where it may appear
     * @param syntax the argument syntax, for messages
     * @param action what it does
     */
    public record Directive(String name, int minArgs, int maxArgs, Set<Context> contexts, String syntax,
                            Action action) {
    }

    // Set.of, not EnumSet: EnumSet finds an enum's constants reflectively, which costs start-up
    // the reflection machinery's first use.
    /** Server context only. */
    public static final Set<Context> SERVER = Set.of(Context.SERVER);
    /** Inside {@code <Location>} only. */
    public static final Set<Context> LOCATION = Set.of(Context.LOCATION);
    /** Inside {@code <Proxy>} only. */
    public static final Set<Context> PROXY = Set.of(Context.PROXY);
    /** The server level and {@code <Location>}. */
    public static final Set<Context> SERVER_OR_LOCATION = Set.of(Context.SERVER, Context.LOCATION);

    private final Map<String, Directive> byName = new LinkedHashMap<>();

    /** Every directive this server knows: Define, engine, site, logs and the modules'. */
    public static DirectiveTable standard() {
        DirectiveTable t = new DirectiveTable();
        ConfigVariables.register(t);
        EngineDirectives.register(t);
        Http2Directives.register(t);
        StreamingDirectives.register(t);
        ChargeDirectives.register(t);
        SiteDirectives.register(t);
        LogDirectives.register(t);
        TlsDirectives.register(t);
        ChildDirectives.register(t);
        ProxyDirectives.register(t);
        PidDirectives.register(t);
        RemoteIpDirectives.register(t);
        CompressionDirectives.register(t);
        HeaderDirectives.register(t);
        WebSocketDirectives.register(t);
        InputBudgetDirectives.register(t);
        ApplicationDirectives.register(t);
        AliasDirectives.register(t);
        AuthDirectives.register(t);
        ExpiresDirectives.register(t);
        ErrorDocumentDirectives.register(t);
        return t;
    }

    /**
     * Adds a directive.
     *
     * @throws IllegalArgumentException if the name is taken
     */
    public DirectiveTable register(String name, int minArgs, int maxArgs, Set<Context> contexts, String syntax,
                                   Action action) {
        String key = name.toLowerCase(Locale.ROOT);
        if (byName.containsKey(key)) {
            throw new IllegalArgumentException("directive already registered: " + name);
        }
        byName.put(key, new Directive(name, minArgs, maxArgs, Set.copyOf(contexts), syntax, action));
        return this;
    }

    /**
     * Adds a directive as its spec says.
     *
     * @throws IllegalArgumentException if the name is taken
     */
    public DirectiveTable register(DirectiveSpec spec, Action action) {
        return register(spec.name(), spec.minArgs(), spec.maxArgs(), spec.contexts(), spec.syntax(), action);
    }

    /** The directive of this name (any case), or null. */
    public Directive lookup(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every directive, in registration order. */
    public Collection<Directive> all() {
        return byName.values();
    }
}
