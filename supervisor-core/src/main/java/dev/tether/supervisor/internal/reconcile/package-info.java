/**
 * Settles what a previous run left behind, before anything starts: every registry row and
 * every live process carrying this installation's markers is verified; what is ours is
 * stopped or adopted, and nothing else is ever signalled.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.reconcile;

import org.jspecify.annotations.NullMarked;
