package dev.tether.supervisor.internal.ports;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One reading of the TCP sockets that listen, from {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6}: each port with the inodes of the sockets listening on it.
 * <p>
 * Why a table is read only up to its first socket that does not listen: the kernel lists
 * its listening hash before its established one (which holds every connection and every
 * {@code TIME_WAIT}), so the rows that matter come first, and a machine whose probes
 * leave tens of thousands of closed connections behind does not make each reading cost
 * megabytes.
 */
final class ListeningSockets {

	private static final Path TABLES = Path.of("/proc/net");

	private static final String LISTEN = "0A";

	private static final Pattern SPACES = Pattern.compile("\\s+");

	private final Map<Integer, Set<Long>> inodes;

	private final Set<Long> all = new HashSet<>();

	private ListeningSockets(Map<Integer, Set<Long>> inodes) {
		this.inodes = inodes;
		inodes.values().forEach(this.all::addAll);
	}

	/**
	 * Reads both tables now; a table that cannot be read (IPv6 disabled) lists nothing.
	 */
	static ListeningSockets read() {
		Map<Integer, Set<Long>> inodes = new HashMap<>();
		for (String table : List.of("tcp", "tcp6")) {
			try (BufferedReader reader = Files.newBufferedReader(TABLES.resolve(table), StandardCharsets.US_ASCII)) {
				reader.readLine();
				String line = reader.readLine();
				while (line != null && parse(line, inodes)) {
					line = reader.readLine();
				}
			}
			catch (IOException ex) {
				// No such table: nothing listens there.
			}
		}
		return new ListeningSockets(inodes);
	}

	/** Parses the rows of one table (its header first), as {@link #read()} does. */
	static ListeningSockets parse(List<String> table) {
		Map<Integer, Set<Long>> inodes = new HashMap<>();
		for (String line : table.subList(Math.min(1, table.size()), table.size())) {
			if (!parse(line, inodes)) {
				break;
			}
		}
		return new ListeningSockets(inodes);
	}

	/**
	 * Adds the socket of one row if it listens. @return whether it listens (or does not
	 * parse), so that the rows of listening sockets may go on
	 */
	private static boolean parse(String line, Map<Integer, Set<Long>> inodes) {
		String[] fields = SPACES.split(line.trim());
		if (fields.length < 10) {
			return true;
		}
		if (!LISTEN.equals(fields[3])) {
			return false;
		}
		int colon = fields[1].lastIndexOf(':');
		try {
			long inode = Long.parseLong(fields[9]);
			if (colon > 0 && inode != 0) {
				inodes.computeIfAbsent(Integer.parseInt(fields[1].substring(colon + 1), 16), (port) -> new HashSet<>())
					.add(inode);
			}
		}
		catch (NumberFormatException ex) {
			// A row that does not parse names no listener.
		}
		return true;
	}

	/** The inodes of the sockets listening on {@code port}, empty when none does. */
	Set<Long> inodes(int port) {
		return this.inodes.getOrDefault(port, Set.of());
	}

	/** Whether a socket with this inode listens on any port. */
	boolean listens(long inode) {
		return this.all.contains(inode);
	}

}
