package dev.tether.supervisor.internal.resources;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Pure parsers of the {@code /proc} files resources are read from. No I/O here: every case is testable from text.
 */
public final class ResourceParsers {

	/** The kernel's {@code RLIM_INFINITY} as this package reports it. */
	public static final long UNLIMITED = Long.MAX_VALUE;

	// Fields of /proc/<pid>/stat, counted from 1, of those after the command name.
	private static final int STAT_STATE = 3;

	private static final int STAT_UTIME = 14;

	private static final int STAT_THREADS = 20;

	private static final int CAP_SYS_RESOURCE = 24;

	private ResourceParsers() {
	}

	/**
	 * The hard limits of {@code /proc/<pid>/limits}, by the row's name ({@code Max open files}, ...);
	 * {@link #UNLIMITED} for {@code unlimited}.
	 */
	public static Map<String, Long> hardLimits(String content) {
		return limits(content, 1);
	}

	/**
	 * The soft limits of {@code /proc/<pid>/limits}, by the row's name ({@code Max open files}, ...);
	 * {@link #UNLIMITED} for {@code unlimited}.
	 */
	public static Map<String, Long> softLimits(String content) {
		return limits(content, 0);
	}

	private static Map<String, Long> limits(String content, int column) {
		Map<String, Long> limits = new HashMap<>();
		for (String line : content.split("\n")) {
			// Why by columns: a row's name holds spaces; its soft, hard and unit columns follow it at 26, 47 and 68.
			if (!line.startsWith("Max ") || line.length() < 47) {
				continue;
			}
			String name = line.substring(0, 26).trim();
			String[] values = line.substring(26).trim().split("\\s+");
			if (values.length >= 2) {
				limits.put(name, values[column].equals("unlimited") ? UNLIMITED : parseOr(values[column], -1));
			}
		}
		return limits;
	}

	/** Whether the effective capabilities in {@code /proc/<pid>/status} hold {@code CAP_SYS_RESOURCE}. */
	public static boolean hasSysResource(String status) {
		for (String line : status.split("\n")) {
			if (line.startsWith("CapEff:")) {
				try {
					return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << CAP_SYS_RESOURCE)) != 0;
				}
				catch (NumberFormatException ex) {
					return false;
				}
			}
		}
		return false;
	}

	/** A {@code kB} value of {@code /proc/<pid>/status} ({@code VmRSS:}, ...), in bytes. */
	public static OptionalLong kilobytes(String content, String key) {
		int at = content.startsWith(key) ? 0 : content.indexOf("\n" + key);
		if (at < 0) {
			return OptionalLong.empty();
		}
		int start = content.indexOf(key, at) + key.length();
		int end = content.indexOf(" kB", start);
		long value = (end < 0) ? -1 : parseOr(content.substring(start, end).trim(), -1);
		return (value < 0) ? OptionalLong.empty() : OptionalLong.of(value * 1024);
	}

	/**
	 * The usage fields of {@code /proc/<pid>/stat}, read after the last {@code )} (a command name may hold spaces and
	 * parentheses); empty when it does not parse.
	 */
	public static Optional<ProcUsage> usage(String content) {
		int close = content.lastIndexOf(')');
		if (close < 0 || close + 2 > content.length()) {
			return Optional.empty();
		}
		String[] fields = content.substring(close + 2).trim().split(" ");
		if (fields.length <= STAT_THREADS - STAT_STATE) {
			return Optional.empty();
		}
		try {
			int utime = STAT_UTIME - STAT_STATE;
			return Optional.of(new ProcUsage(Long.parseLong(fields[utime]), Long.parseLong(fields[utime + 1]),
					Long.parseLong(fields[utime + 2]), Long.parseLong(fields[utime + 3]),
					Long.parseLong(fields[STAT_THREADS - STAT_STATE])));
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
	}

	/** A counter of {@code /proc/vmstat} ({@code oom_kill}, ...): lines of a name and a number. */
	public static OptionalLong vmstat(String content, String counter) {
		for (String line : content.split("\n")) {
			if (line.startsWith(counter + " ")) {
				long value = parseOr(line.substring(counter.length() + 1).trim(), -1);
				return (value < 0) ? OptionalLong.empty() : OptionalLong.of(value);
			}
		}
		return OptionalLong.empty();
	}

	private static long parseOr(String text, long otherwise) {
		try {
			return Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			return otherwise;
		}
	}

	/**
	 * One process's usage, in clock ticks and pages.
	 * @param userTicks its own user time
	 * @param systemTicks its own system time
	 * @param childrenUserTicks the user time of the children it has reaped (and theirs)
	 * @param childrenSystemTicks their system time
	 * @param threads how many threads it has
	 */
	public record ProcUsage(long userTicks, long systemTicks, long childrenUserTicks, long childrenSystemTicks,
			long threads) {

		long ownTicks() {
			return this.userTicks + this.systemTicks;
		}

		long reapedTicks() {
			return this.childrenUserTicks + this.childrenSystemTicks;
		}

	}

}
