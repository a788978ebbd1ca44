/**
 * Where the supervisor records its live children, so that a later run can find and end
 * what a crash left behind. The SPI is
 * {@link dev.tether.supervisor.registry.ChildRegistry}; the default store is a JSON file
 * written atomically under a lock held for the supervisor's life.
 */
@NullMarked
package dev.tether.supervisor.registry;

import org.jspecify.annotations.NullMarked;
