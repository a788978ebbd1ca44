package dev.tether.supervisor.internal.ports;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.tether.supervisor.internal.identity.IdentityProbe;

/**
 * Whether a child's port is held by the child's own process tree: every socket listening
 * on it (in {@code /proc/net/tcp} and {@code /proc/net/tcp6}) is a descriptor of its
 * process (the command, or its shepherd) or of a descendant. Why: a port that merely
 * accepts may be held by anything that bound it first (another user's squatter receives
 * the probes and the MCP traffic meant for the child), so readiness, liveness and the MCP
 * connection count a port only when the child's tree holds it.
 * <p>
 * Why it remembers: a socket found in a child's tree stays that tree's for as long as it
 * listens (only a process that holds a socket can hand it on), so once found, a check is
 * a lookup in one reading of the tables, not a walk of the tree's descriptors; and a
 * foreign socket is named once while it listens, since naming it scans every process's
 * descriptors. Thread-safe; {@code /proc} is read outside its monitor.
 */
public final class PortOwnership {

	private final IdentityProbe probe;

	/** The sockets found in each process's tree. Guarded by this. */
	private final Map<Object, Set<Long>> found = new HashMap<>();

	/** What is said of each foreign socket's holder. Guarded by this. */
	private final Map<Long, String> foreign = new HashMap<>();

	public PortOwnership(IdentityProbe probe) {
		this.probe = probe;
	}

	/**
	 * Reads the listening sockets once, for the checks that follow (those of one tick
	 * share it), and forgets the sockets that no longer listen.
	 */
	public ListeningSockets read() {
		ListeningSockets now = ListeningSockets.read();
		synchronized (this) {
			this.found.values().forEach((inodes) -> inodes.removeIf((inode) -> !now.listens(inode)));
			this.found.values().removeIf(Set::isEmpty);
			this.foreign.keySet().removeIf((inode) -> !now.listens(inode));
		}
		return now;
	}

	/**
	 * Why the tree of {@code root} does not hold {@code port}, or empty when it holds
	 * every socket listening on it.
	 * @param now a reading of the listening sockets ({@link #read()})
	 * @param process the process checked, as the caller tells its processes apart: what
	 * was found in its tree is kept for it
	 * @param root the pid of that process: its command's, or its shepherd's
	 */
	public Optional<String> notHeld(ListeningSockets now, int port, Object process, long root) {
		Set<Long> unknown = new HashSet<>(now.inodes(port));
		if (unknown.isEmpty()) {
			return Optional.of("nothing listens on port " + port);
		}
		synchronized (this) {
			unknown.removeAll(this.found.getOrDefault(process, Set.of()));
		}
		if (unknown.isEmpty()) {
			return Optional.empty();
		}
		Set<Long> inTree = SocketHolders.heldByTree(root, unknown);
		synchronized (this) {
			if (!inTree.isEmpty()) {
				this.found.computeIfAbsent(process, (key) -> new HashSet<>()).addAll(inTree);
			}
		}
		unknown.removeAll(inTree);
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

}
