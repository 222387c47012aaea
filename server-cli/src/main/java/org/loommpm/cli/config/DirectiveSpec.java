package org.loommpm.cli.config;

import java.util.Set;

/**
 * What the parser checks of a directive line before its action runs, and what its messages show:
 * the fields every directive enum's constants carry.
 *
 * @param name the canonical spelling
 * @param minArgs fewest arguments
 * @param maxArgs most arguments ({@code Integer.MAX_VALUE} for a list)
 * @param contexts where it may appear
 * @param syntax the argument syntax, for messages
 */
public record DirectiveSpec(String name, int minArgs, int maxArgs, Set<DirectiveTable.Context> contexts,
                            String syntax) {
}
