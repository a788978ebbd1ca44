package dev.tether.supervisor.internal.resources;

import java.util.function.LongConsumer;

import org.jspecify.annotations.Nullable;

/**
 * Pure parsers of {@code /proc} files as the bytes a read returned, for the sampler's hot
 * path: no string is made, nothing is split. No I/O here: every case is testable from
 * bytes.
 */
public final class ProcBytes {

	// Fields of /proc/<pid>/stat, counted from 1, of those after the command name.
	private static final int STAT_STATE = 3;

	private static final int STAT_UTIME = 14;

	private static final int STAT_THREADS = 20;

	private ProcBytes() {
	}

	/**
	 * The usage fields of a {@code /proc/<pid>/stat}, read after the last {@code )} (a
	 * command name may hold spaces and parentheses); {@code null} when they do not parse.
	 * @param bytes the file's content from index 0
	 * @param length how many of {@code bytes} it fills
	 */
	public static @Nullable ProcUsage usage(byte[] bytes, int length) {
		int at = length - 1;
		while (at >= 0 && bytes[at] != ')') {
			at--;
		}
		if (at < 0) {
			return null;
		}
		long[] values = new long[STAT_THREADS - STAT_UTIME + 1];
		int field = STAT_STATE;
		int i = at + 2;
		while (field <= STAT_THREADS) {
			if (i >= length) {
				return null;
			}
			int end = i;
			while (end < length && bytes[end] != ' ' && bytes[end] != '\n') {
				end++;
			}
			if (field >= STAT_UTIME) {
				long value = number(bytes, i, end);
				if (value == Long.MIN_VALUE) {
					return null;
				}
				values[field - STAT_UTIME] = value;
			}
			field++;
			i = end + 1;
		}
		return new ProcUsage(values[0], values[1], values[2], values[3], values[STAT_THREADS - STAT_UTIME],
				bytes[at + 2] == 'Z');
	}

	/**
	 * The resident pages of a {@code /proc/<pid>/statm}: its second field; -1 when it
	 * does not parse.
	 * @param bytes the file's content from index 0
	 * @param length how many of {@code bytes} it fills
	 */
	public static long residentPages(byte[] bytes, int length) {
		int i = 0;
		while (i < length && bytes[i] != ' ') {
			i++;
		}
		i++;
		int end = i;
		while (end < length && bytes[end] >= '0' && bytes[end] <= '9') {
			end++;
		}
		boolean separated = end >= length || bytes[end] == ' ' || bytes[end] == '\n';
		long pages = separated ? number(bytes, i, end) : Long.MIN_VALUE;
		return (pages >= 0) ? pages : -1;
	}

	/**
	 * Each pid of a {@code /proc/<pid>/task/<tid>/children} list (numbers separated by
	 * spaces); what is not a number is skipped.
	 */
	public static void pids(byte[] bytes, int length, LongConsumer each) {
		int i = 0;
		while (i < length) {
			while (i < length && (bytes[i] < '0' || bytes[i] > '9')) {
				i++;
			}
			int end = i;
			while (end < length && bytes[end] >= '0' && bytes[end] <= '9') {
				end++;
			}
			long pid = number(bytes, i, end);
			if (pid > 0) {
				each.accept(pid);
			}
			i = end;
		}
	}

	/**
	 * The decimal number in {@code [from, to)}, with an optional minus sign;
	 * {@link Long#MIN_VALUE} when none.
	 */
	private static long number(byte[] bytes, int from, int to) {
		boolean negative = from < to && bytes[from] == '-';
		int i = negative ? from + 1 : from;
		// Why 18 digits at most: the number cannot overflow, and no /proc field read here
		// comes near it.
		if (i >= to || to - i > 18) {
			return Long.MIN_VALUE;
		}
		long value = 0;
		for (; i < to; i++) {
			byte digit = bytes[i];
			if (digit < '0' || digit > '9') {
				return Long.MIN_VALUE;
			}
			value = value * 10 + (digit - '0');
		}
		return negative ? -value : value;
	}

	/**
	 * One process's usage, in clock ticks and pages.
	 *
	 * @param userTicks its own user time
	 * @param systemTicks its own system time
	 * @param childrenUserTicks the user time of the children it has reaped (and theirs)
	 * @param childrenSystemTicks their system time
	 * @param threads how many threads it has
	 */
	public record ProcUsage(long userTicks, long systemTicks, long childrenUserTicks, long childrenSystemTicks,
			long threads, boolean zombie) {

		long ownTicks() {
			return this.userTicks + this.systemTicks;
		}

		long reapedTicks() {
			return this.childrenUserTicks + this.childrenSystemTicks;
		}

	}

}
