/**
 * Directories and files the supervisor writes (the state directory, the registry, the
 * logs): created private (0700, 0600), refused when another user could replace what is in
 * them. Plain NIO, kept apart from the native calls. Not API.
 */
@NullMarked
package dev.tether.supervisor.internal.files;

import org.jspecify.annotations.NullMarked;
