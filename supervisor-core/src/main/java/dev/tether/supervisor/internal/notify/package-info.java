/**
 * The child speaks: systemd's notify protocol ({@code sd_notify}). Each process of a
 * child with {@code readiness.notify} or {@code liveness.watchdog} gets a datagram socket
 * of its own ({@link dev.tether.supervisor.internal.notify.NotifyChannel}), named in its
 * {@code NOTIFY_SOCKET}; one thread
 * ({@link dev.tether.supervisor.internal.notify.NotifyPoller}) receives on every socket
 * through one epoll set, keeps what each process said ({@code READY=1}, {@code STATUS=},
 * {@code WATCHDOG=1}, ...) and tells the engine at once of what changes a state. Why a
 * socket per process: a datagram then names its child by the socket it came in on, and a
 * later process never hears what an earlier one said.
 * <p>
 * A datagram counts only when the kernel's credentials ({@code SCM_CREDENTIALS}) name a
 * process of the child's own tree, of the supervisor's uid
 * ({@link dev.tether.supervisor.internal.notify.ProcessTree}); anything else is dropped
 * and counted.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.notify;

import org.jspecify.annotations.NullMarked;
