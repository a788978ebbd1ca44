/**
 * Isolation of the contexts that Spring's test framework starts: each gets a temporary
 * state directory and an installation id of its own, so that cached contexts supervise
 * side by side and no test reaches the user's state directory or the children of a
 * running instance. Read only by spring-test (through {@code spring.factories}), which is
 * why the starter needs spring-test only when tests run.
 */
@NullMarked
package dev.tether.supervisor.boot.testcontext;

import org.jspecify.annotations.NullMarked;
