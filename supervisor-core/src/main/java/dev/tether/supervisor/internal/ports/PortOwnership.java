package dev.tether.supervisor.internal.ports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.identity.IdentityProbe;

/**
 * Whether a child's port is held by the child's own process tree: every socket listening
 * on it (in {@code /proc/net/tcp} and {@code /proc/net/tcp6}) is a descriptor of its
 * process (the command, or its shepherd) or of a descendant. Why: a port that merely
 * accepts may be held by anything that bound it first (another user's squatter receives
 * the probes and the MCP traffic meant for the child), so readiness, liveness and the MCP
 * connection count a port only when the child's tree holds it.
 * <p>
 * Why it remembers: reading the tables costs the kernel about 20 ms with 1,000 sockets
 * listening, and walking a tree's descriptors a few hundred microseconds. So a socket
 * found in a tree is remembered with the descriptor that holds it, and while that
 * descriptor still links to it the port is the tree's without reading the tables again:
 * as long as the tree holds a socket listening on the port, no other user can bind it
 * (only {@code SO_REUSEPORT} shares a port, and only with the same user, who controls the
 * child anyway). What this does not see: a child that shuts its listener down but keeps
 * its descriptor. A foreign socket is named once while it listens, since naming it scans
 * every process's descriptors. Thread-safe; {@code /proc} is read outside its monitor.
 */
public final class PortOwnership {

	private final IdentityProbe probe;

	/** The sockets found in each process's tree. Guarded by this. */
	private final Map<Object, List<Found>> found = new HashMap<>();

	/** What is said of each foreign socket's holder. Guarded by this. */
	private final Map<Long, String> foreign = new HashMap<>();

	public PortOwnership(IdentityProbe probe) {
		this.probe = probe;
	}

	/** A round of checks (those of one tick) that reads the tables at most once. */
	public Checks checks() {
		return new Checks();
	}

	/**
	 * Whether the sockets remembered for this process's {@code port} are still held by
	 * the same descriptors; those no longer held are forgotten.
	 */
	private boolean stillHeld(int port, Object process) {
		List<Found> known;
		synchronized (this) {
			known = this.found.getOrDefault(process, List.of())
				.stream()
				.filter((socket) -> socket.port() == port)
				.toList();
		}
		if (known.isEmpty()) {
			return false;
		}
		List<Found> gone = known.stream()
			.filter((socket) -> SocketHolders.socketInode(socket.descriptor()) != socket.inode())
			.toList();
		if (gone.isEmpty()) {
			return true;
		}
		synchronized (this) {
			this.found.getOrDefault(process, new ArrayList<>()).removeAll(gone);
		}
		return false;
	}

	/** Forgets the sockets that no longer listen. */
	private synchronized void forgetClosed(ListeningSockets now) {
		this.found.values().forEach((sockets) -> sockets.removeIf((socket) -> !now.listens(socket.inode())));
		this.found.values().removeIf(List::isEmpty);
		this.foreign.keySet().removeIf((inode) -> !now.listens(inode));
	}

	private Optional<String> check(ListeningSockets now, int port, Object process, long root) {
		Set<Long> unknown = new HashSet<>(now.inodes(port));
		if (unknown.isEmpty()) {
			return Optional.of("nothing listens on port " + port);
		}
		synchronized (this) {
			this.found.getOrDefault(process, List.of()).forEach((socket) -> unknown.remove(socket.inode()));
		}
		if (unknown.isEmpty()) {
			return Optional.empty();
		}
		Map<Long, Path> inTree = SocketHolders.heldByTree(root, unknown);
		synchronized (this) {
			List<Found> sockets = this.found.computeIfAbsent(process, (key) -> new ArrayList<>());
			inTree.forEach((inode, descriptor) -> sockets.add(new Found(port, inode, descriptor)));
		}
		unknown.removeAll(inTree.keySet());
		return unknown.isEmpty() ? Optional.empty()
				: Optional.of(holder(port, unknown) + ", which is not this child's");
	}

	/** Names the holder of one of these foreign sockets of {@code port}. */
	private String holder(int port, Set<Long> inodes) {
		synchronized (this) {
			for (long inode : inodes) {
				String known = this.foreign.get(inode);
				if (known != null) {
					return known;
				}
			}
		}
		Map<Long, Long> holders = SocketHolders.anyHolders(inodes);
		Map<Long, String> named = new HashMap<>();
		for (long inode : inodes) {
			Long pid = holders.get(inode);
			named.put(inode, (pid != null) ? PortGuard.heldBy(port, pid, this.probe.stat(pid))
					: "port " + port + " is held by a process that cannot be identified");
		}
		synchronized (this) {
			this.foreign.putAll(named);
		}
		return named.get(inodes.iterator().next());
	}

	/** Checks that share one reading of the tables, made when the first needs it. */
	public final class Checks {

		private @Nullable ListeningSockets tables;

		private Checks() {
		}

		/**
		 * Why the tree of {@code root} does not hold {@code port}, or empty when it holds
		 * every socket listening on it.
		 * @param process the process checked, as the caller tells its processes apart:
		 * what was found in its tree is remembered for it
		 * @param root the pid of that process: its command's, or its shepherd's
		 */
		public Optional<String> notHeld(int port, Object process, long root) {
			if (stillHeld(port, process)) {
				return Optional.empty();
			}
			ListeningSockets now = this.tables;
			if (now == null) {
				now = ListeningSockets.read();
				forgetClosed(now);
				this.tables = now;
			}
			return check(now, port, process, root);
		}

	}

	/**
	 * A socket found in a process's tree.
	 *
	 * @param descriptor the {@code /proc/<pid>/fd/<n>} link of a process of the tree that
	 * holds it
	 */
	private record Found(int port, long inode, Path descriptor) {
	}

}
