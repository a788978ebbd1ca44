/**
 * Spring Boot auto-configuration of Tether's supervisor: the {@code supervisor.*}
 * properties, their translation into checked child specifications, and the lifecycle that
 * ticks the supervisor and stops the children at shutdown. Configuration is checked once
 * at startup and every failure names its property, because a child that cannot work
 * should stop the application before it serves anything, not fail later at runtime.
 */
@NullMarked
package dev.tether.supervisor.boot;

import org.jspecify.annotations.NullMarked;
