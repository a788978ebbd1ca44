/**
 * Spring application events for what happens to a supervised child (started, exited,
 * restarting, failed, stopped). One subtype per supervisor event type, so that an
 * {@code @EventListener} can pick the events it needs by type.
 */
@NullMarked
package dev.tether.supervisor.boot.event;

import org.jspecify.annotations.NullMarked;
