/**
 * Child output, inside: the pipes a child's stdout and stderr are written to, the pump
 * that reads them, and the sinks the lines go to (a rotated file, the application's
 * logging). Not API.
 * <p>
 * Why a pump and not a thread per child: four threads wait on every pipe (one epoll set)
 * and read the ones that are ready, so a thousand children cost no more threads than one.
 * A child is read again only once its previous lines are written, so a child that
 * outpaces its sinks waits on its own writes (as on a terminal) and the heap stays
 * bounded; the pipe of a child that outpaces the pump itself is grown for the time it
 * does.
 */
@NullMarked
package dev.tether.supervisor.internal.output;

import org.jspecify.annotations.NullMarked;
