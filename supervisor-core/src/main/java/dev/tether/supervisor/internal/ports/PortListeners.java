package dev.tether.supervisor.internal.ports;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds which process listens on a TCP port, from {@code /proc/net/tcp},
 * {@code /proc/net/tcp6} and the socket inodes in {@code /proc/<pid>/fd}.
 */
final class PortListeners {

	private static final Path PROC = Path.of("/proc");

	private static final String LISTEN = "0A";

	/** The listener of a port, if any socket listens on it. */
	Optional<PortListener> find(int port) {
		Set<Long> inodes = new HashSet<>();
		for (String table : List.of("tcp", "tcp6")) {
			try {
				inodes.addAll(listeningInodes(Files.readAllLines(PROC.resolve("net").resolve(table)), port));
			}
			catch (IOException ex) {
				// No such table (IPv6 disabled): nothing listens there.
			}
		}
		if (inodes.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new PortListener(port, holderOf(inodes)));
	}

	/**
	 * The inodes of sockets listening on {@code port} in one {@code /proc/net/tcp*}
	 * table.
	 */
	static Set<Long> listeningInodes(List<String> lines, int port) {
		Set<Long> inodes = new HashSet<>();
		for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length < 10 || !LISTEN.equals(fields[3])) {
				continue;
			}
			int colon = fields[1].lastIndexOf(':');
			try {
				if (colon > 0 && Integer.parseInt(fields[1].substring(colon + 1), 16) == port) {
					long inode = Long.parseLong(fields[9]);
					if (inode != 0) {
						inodes.add(inode);
					}
				}
			}
			catch (NumberFormatException ex) {
				// A line that does not parse names no listener.
			}
		}
		return inodes;
	}

	private static long holderOf(Set<Long> inodes) {
		Set<String> targets = new HashSet<>();
		inodes.forEach((inode) -> targets.add("socket:[" + inode + "]"));
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC)) {
			for (Path process : processes) {
				String name = process.getFileName().toString();
				if (name.isEmpty() || !name.chars().allMatch(Character::isDigit)) {
					continue;
				}
				try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
					for (Path fd : fds) {
						if (targets.contains(readLink(fd))) {
							return Long.parseLong(name);
						}
					}
				}
				catch (IOException ex) {
					// Gone, or not ours to read.
				}
			}
		}
		catch (IOException ex) {
			return -1;
		}
		return -1;
	}

	private static String readLink(Path fd) {
		try {
			return Files.readSymbolicLink(fd).toString();
		}
		catch (IOException ex) {
			return "";
		}
	}

}
