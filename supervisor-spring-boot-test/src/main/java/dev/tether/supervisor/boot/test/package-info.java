/**
 * Test support for applications that supervise children with the starter: a check that a
 * test leaves no child of its context running, waiting for a child's state with a
 * deadline, and a context with supervision or autostart off. Contexts started by Spring's
 * test framework are already isolated by the starter (a temporary state directory and
 * installation id each); this package adds what a test asserts on.
 */
@NullMarked
package dev.tether.supervisor.boot.test;

import org.jspecify.annotations.NullMarked;
