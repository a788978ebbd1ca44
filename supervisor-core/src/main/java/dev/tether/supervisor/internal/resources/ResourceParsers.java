package dev.tether.supervisor.internal.resources;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Pure parsers of the {@code /proc} files resources are read from. No I/O here: every
 * case is testable from text.
 */
public final class ResourceParsers {

	/** The kernel's {@code RLIM_INFINITY} as this package reports it. */
	public static final long UNLIMITED = Long.MAX_VALUE;

	private static final int CAP_SYS_RESOURCE = 24;

	private ResourceParsers() {
	}

	/**
	 * The hard limits of {@code /proc/<pid>/limits}, by the row's name
	 * ({@code Max open files}, ...); {@link #UNLIMITED} for {@code unlimited}.
	 */
	public static Map<String, Long> hardLimits(String content) {
		return limits(content, 1);
	}

	/**
	 * The soft limits of {@code /proc/<pid>/limits}, by the row's name
	 * ({@code Max open files}, ...); {@link #UNLIMITED} for {@code unlimited}.
	 */
	public static Map<String, Long> softLimits(String content) {
		return limits(content, 0);
	}

	private static Map<String, Long> limits(String content, int column) {
		Map<String, Long> limits = new HashMap<>();
		for (String line : content.split("\n")) {
			// Why by columns: a row's name holds spaces; its soft, hard and unit columns
			// follow it at 26, 47 and 68.
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

	/**
	 * Whether the effective capabilities in {@code /proc/<pid>/status} hold
	 * {@code CAP_SYS_RESOURCE}.
	 */
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

	/**
	 * A counter of {@code /proc/vmstat} ({@code oom_kill}, ...): lines of a name and a
	 * number.
	 */
	public static OptionalLong vmstat(String content, String counter) {
		// Why no split: it is read at every start of a child (for the OOM-kill
		// attribution), and splitting its ~170 lines into strings there was work per
		// child.
		int line = 0;
		while (line < content.length()) {
			int end = content.indexOf('\n', line);
			end = (end < 0) ? content.length() : end;
			int value = line + counter.length();
			if (content.startsWith(counter, line) && value < end && content.charAt(value) == ' ') {
				long count = parseOr(content.substring(value + 1, end).trim(), -1);
				return (count < 0) ? OptionalLong.empty() : OptionalLong.of(count);
			}
			line = end + 1;
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

}
