package dev.tether.supervisor.internal.ports;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which processes hold sockets, from the socket inodes their descriptors link to in
 * {@code /proc/<pid>/fd}: any process at all, or only those of one process tree.
 */
final class SocketHolders {

	private static final Path PROC = Path.of("/proc");

	// Why a bound: a fork bomb under a child must not make one check walk for ever.
	private static final int MAX_TREE = 10_000;

	private SocketHolders() {
	}

	/**
	 * The holder of each of these sockets that a readable process holds, from one scan of
	 * every process's descriptors: costly, so for a socket that is not in the tree
	 * expected to hold it.
	 */
	static Map<Long, Long> anyHolders(Set<Long> inodes) {
		Map<Long, Long> holders = new HashMap<>();
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC)) {
			for (Path process : processes) {
				String name = process.getFileName().toString();
				if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
					long pid = Long.parseLong(name);
					held(pid, inodes).keySet().forEach((inode) -> holders.putIfAbsent(inode, pid));
					if (holders.size() == inodes.size()) {
						break;
					}
				}
			}
		}
		catch (IOException ex) {
			// No /proc: no holder is known.
		}
		return holders;
	}

	/**
	 * Which of {@code wanted} the tree of {@code root} holds, each with a descriptor of a
	 * process of the tree that links to it: {@code root} and its descendants, found
	 * through each thread's {@code children} list. The root is looked at first, and the
	 * walk ends once every socket is found: the command itself holds its socket in most
	 * children.
	 */
	static Map<Long, Path> heldByTree(long root, Set<Long> wanted) {
		Map<Long, Path> found = new HashMap<>();
		Set<Long> seen = new HashSet<>();
		ArrayDeque<Long> pending = new ArrayDeque<>();
		pending.add(root);
		while (!pending.isEmpty() && found.size() < wanted.size() && seen.size() < MAX_TREE) {
			long pid = pending.pop();
			if (seen.add(pid)) {
				held(pid, wanted).forEach(found::putIfAbsent);
				children(pid, pending);
			}
		}
		return found;
	}

	/** Which of {@code inodes} the descriptors of {@code pid} link to, and which one. */
	private static Map<Long, Path> held(long pid, Set<Long> inodes) {
		Map<Long, Path> held = new HashMap<>();
		try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("fd"))) {
			for (Path fd : fds) {
				long inode = socketInode(fd);
				if (inode > 0 && inodes.contains(inode)) {
					held.putIfAbsent(inode, fd);
				}
			}
		}
		catch (IOException ex) {
			// Gone, or not ours to read: it holds nothing that can be seen.
		}
		return held;
	}

	/** The inode of the socket a descriptor links to ({@code socket:[123]}), else -1. */
	static long socketInode(Path fd) {
		try {
			String link = Files.readSymbolicLink(fd).toString();
			if (link.startsWith("socket:[") && link.endsWith("]")) {
				return Long.parseLong(link, 8, link.length() - 1, 10);
			}
		}
		catch (IOException | NumberFormatException ex) {
			// Closed meanwhile, or not a socket.
		}
		return -1;
	}

	/**
	 * Adds the children of every thread of {@code pid}: a child belongs to the thread
	 * that forked it.
	 */
	private static void children(long pid, ArrayDeque<Long> pending) {
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("task"))) {
			for (Path task : tasks) {
				String children = Files.readString(task.resolve("children")).strip();
				if (!children.isEmpty()) {
					for (String child : children.split(" ")) {
						pending.add(Long.parseLong(child));
					}
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// Gone meanwhile: its descendants, if any are left, were re-parented.
		}
	}

}
