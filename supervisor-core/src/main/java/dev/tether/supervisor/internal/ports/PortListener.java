package dev.tether.supervisor.internal.ports;

/**
 * A process found listening on a TCP port.
 *
 * @param port the port
 * @param pid the pid holding the socket, or {@code -1} when no readable process holds it
 */
record PortListener(int port, long pid) {

	/** Whether the holding process was found. */
	boolean hasPid() {
		return this.pid > 0;
	}

}
