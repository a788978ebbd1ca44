package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.tether.supervisor.internal.identity.ProcParsers;
import dev.tether.supervisor.internal.identity.ProcStat;

/**
 * What tests read of real processes through {@code /proc}. A zombie counts as dead: PID 1
 * on these machines reaps orphans lazily.
 */
public final class LiveProcesses {

	private LiveProcesses() {
	}

	/** Whether the pid names a live (non-zombie) process. */
	public static boolean isAlive(long pid) {
		return stat(pid).map((stat) -> !stat.hasExited()).orElse(false);
	}

	/** Whether the pid names a live process that started at {@code startTime}. */
	public static boolean isAlive(long pid, long startTime) {
		return stat(pid).map((stat) -> !stat.hasExited() && stat.startTime() == startTime).orElse(false);
	}

	/**
	 * The nice value of a thread: its {@code /proc/<pid>/task/<tid>} directory, or
	 * {@code /proc/thread-self} for the calling one. It is the 19th field of the thread's
	 * stat, the 17th after the command's closing parenthesis (the command may hold
	 * spaces).
	 */
	public static int nice(Path task) throws IOException {
		String stat = Files.readString(task.resolve("stat"));
		return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ")[16]);
	}

	/** Whether the pid is alive and has exec'd the named program (past any launcher). */
	public static boolean isRunning(long pid, String command) {
		return stat(pid).map((stat) -> !stat.hasExited() && stat.command().equals(command)).orElse(false);
	}

	public static Optional<ProcStat> stat(long pid) {
		try {
			return ProcParsers.stat(pid, Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	public static List<String> environ(long pid) {
		try {
			return ProcParsers.environ(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")));
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	/** The descriptors a process holds, as numbers. */
	public static List<Integer> descriptors(long pid) throws IOException {
		List<Integer> fds = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
			for (Path entry : entries) {
				fds.add(Integer.parseInt(entry.getFileName().toString()));
			}
		}
		fds.sort(null);
		return fds;
	}

	/** Live processes whose environ has the entry, exactly. */
	public static List<Long> withEnvironmentEntry(String entry) {
		List<Long> found = new ArrayList<>();
		long self = ProcessHandle.current().pid();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"))) {
			for (Path path : entries) {
				String name = path.getFileName().toString();
				if (!name.chars().allMatch(Character::isDigit)) {
					continue;
				}
				long pid = Long.parseLong(name);
				if (pid != self && isAlive(pid) && environ(pid).contains(entry)) {
					found.add(pid);
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return found;
	}

	/** The command line, for messages. */
	public static String commandLine(long pid) {
		try {
			return String.join(" ",
					ProcParsers.environ(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"))));
		}
		catch (IOException ex) {
			return "?";
		}
	}

	/** Reads a text file written by a child, or empty when it is not there yet. */
	public static String readIfPresent(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

}
