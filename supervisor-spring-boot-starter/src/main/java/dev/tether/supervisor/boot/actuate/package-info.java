/**
 * Actuator support: the {@code children} endpoint (read by default, start/stop/restart
 * when unrestricted) and the {@code supervisor} health composite. Kept apart from the
 * core auto-configuration so that applications without actuator on the class path never
 * load these types.
 */
@NullMarked
package dev.tether.supervisor.boot.actuate;

import org.jspecify.annotations.NullMarked;
