package dev.tether.supervisor.internal.identity;

import dev.tether.supervisor.ChildKind;

/**
 * A live process found by scanning {@code /proc} for one owner's markers (installation
 * and instance).
 *
 * @param pid its pid
 * @param kind the kind its markers claim
 * @param name the child name its markers claim
 */
public record MarkedProcess(long pid, ChildKind kind, String name) {
}
