package dev.tether.supervisor.internal.notify;

import java.util.HashMap;
import java.util.Map;

import dev.tether.supervisor.internal.os.Posix;

/**
 * Whether a datagram's sender is of its channel's tree ({@link ProcessTree}), remembering
 * under a shepherd the last sender found so by the pidfd of that very process. Why: a
 * watchdog's beats come from one process, and placing it in the tree reads
 * {@code /proc/<pid>/stat} (three quarters of the notify thread's time at 1,000 beats a
 * second); a pidfd proves with one system call ({@link Posix#pidfdAlive}) that the pid
 * still names the process that was placed, since a pid reused after its process was
 * reaped has a pidfd of its own. Why under a shepherd only: a descendant of a shepherd (a
 * subreaper) stays below it for as long as it lives, where without one a process of the
 * command's group may leave the group. The poller's thread's alone.
 */
final class KnownSenders {

	private final ProcessTree tree;

	private final Posix posix;

	private final Map<NotifyChannel, Sender> known = new HashMap<>();

	KnownSenders(ProcessTree tree, Posix posix) {
		this.tree = tree;
		this.posix = posix;
	}

	/** Whether {@code pid} is a process of {@code channel}'s tree. */
	boolean inTree(NotifyChannel channel, long pid) {
		long root = channel.root();
		boolean shepherd = channel.shepherd();
		if (pid == root || !shepherd) {
			return this.tree.contains(root, shepherd, pid);
		}
		Sender last = this.known.get(channel);
		if (last != null && last.pid() == pid) {
			if (this.posix.pidfdAlive(last.pidfd())) {
				return true;
			}
			forget(channel);
		}
		// Why the pidfd before the tree is read: if the pid is reused in between, the
		// pidfd names the process that ended, and is found dead below.
		int pidfd = this.posix.pidfdOpen(pid);
		boolean inTree = this.tree.contains(root, true, pid);
		if (inTree && pidfd >= 0 && this.posix.pidfdAlive(pidfd)) {
			forget(channel);
			this.known.put(channel, new Sender(pid, pidfd));
		}
		else if (pidfd >= 0) {
			this.posix.close(pidfd);
		}
		return inTree;
	}

	/** Forgets the sender of {@code channel}, closing its pidfd. */
	void forget(NotifyChannel channel) {
		Sender sender = this.known.remove(channel);
		if (sender != null) {
			this.posix.close(sender.pidfd());
		}
	}

	private record Sender(long pid, int pidfd) {
	}

}
