package dev.tether.supervisor.internal.ports;

import java.util.Optional;
import java.util.Set;

/**
 * Finds which process listens on a TCP port, from {@code /proc/net/tcp},
 * {@code /proc/net/tcp6} and the socket inodes in {@code /proc/<pid>/fd}.
 */
final class PortListeners {

	/** The listener of a port, if any socket listens on it. */
	Optional<PortListener> find(int port) {
		Set<Long> inodes = ListeningSockets.read().inodes(port);
		if (inodes.isEmpty()) {
			return Optional.empty();
		}
		return Optional
			.of(new PortListener(port, SocketHolders.anyHolders(inodes).values().stream().findFirst().orElse(-1L)));
	}

}
