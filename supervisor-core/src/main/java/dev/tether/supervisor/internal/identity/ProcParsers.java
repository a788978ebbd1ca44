package dev.tether.supervisor.internal.identity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import dev.tether.supervisor.ChildKind;

/**
 * Pure parsers for the {@code /proc} files identity rests on. No I/O here: every case is
 * testable from bytes.
 */
public final class ProcParsers {

	private static final int STAT_STATE = 3;

	private static final int STAT_THREADS = 20;

	private static final int STAT_START_TIME = 22;

	private ProcParsers() {
	}

	/** Splits {@code /proc/<pid>/environ} into its exact {@code KEY=value} entries. */
	public static List<String> environ(byte[] content) {
		List<String> entries = new ArrayList<>();
		int start = 0;
		for (int i = 0; i <= content.length; i++) {
			if (i == content.length || content[i] == 0) {
				if (i > start) {
					entries.add(new String(content, start, i - start, StandardCharsets.UTF_8));
				}
				start = i + 1;
			}
		}
		return entries;
	}

	/**
	 * Parses {@code /proc/<pid>/stat}. The command name may hold spaces and parentheses,
	 * so the fields after it are read from after the <em>last</em> {@code )}.
	 * @return the fields, or empty when the content does not parse
	 */
	public static Optional<ProcStat> stat(long pid, String content) {
		int open = content.indexOf('(');
		int close = content.lastIndexOf(')');
		if (open < 0 || close < open || close + 2 > content.length()) {
			return Optional.empty();
		}
		String rest = content.substring(close + 2).trim();
		// Why a scan, not split(" "): this runs for every row at reconciliation and every
		// process in a marker scan; only six fields are wanted, so the others are
		// skipped without being cut out. fieldStarts[i] is field i + 3.
		int[] fieldStarts = new int[STAT_START_TIME - STAT_STATE + 1];
		int fields = 1;
		for (int i = 0; i < rest.length() && fields < fieldStarts.length; i++) {
			if (rest.charAt(i) == ' ') {
				fieldStarts[fields++] = i + 1;
			}
		}
		if (fields <= STAT_START_TIME - STAT_STATE || fieldLength(rest, fieldStarts[0]) != 1) {
			return Optional.empty();
		}
		try {
			return Optional.of(new ProcStat(pid, content.substring(open + 1, close), rest.charAt(0),
					field(rest, fieldStarts[1]), field(rest, fieldStarts[2]), field(rest, fieldStarts[3]),
					field(rest, fieldStarts[STAT_THREADS - STAT_STATE]),
					field(rest, fieldStarts[STAT_START_TIME - STAT_STATE])));
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
	}

	private static long field(String fields, int start) {
		return Long.parseLong(fields, start, start + fieldLength(fields, start), 10);
	}

	private static int fieldLength(String fields, int start) {
		int end = fields.indexOf(' ', start);
		return ((end < 0) ? fields.length() : end) - start;
	}

	/**
	 * The real uid from {@code /proc/<pid>/status}: the first number of its {@code Uid:}
	 * line.
	 * @return the uid, or empty when the content has no such line or it does not parse
	 */
	public static OptionalLong realUid(String status) {
		for (String line : status.split("\n")) {
			if (line.startsWith("Uid:")) {
				String[] uids = line.substring(4).trim().split("\\s+");
				try {
					return OptionalLong.of(Long.parseLong(uids[0]));
				}
				catch (NumberFormatException ex) {
					return OptionalLong.empty();
				}
			}
		}
		return OptionalLong.empty();
	}

	/** The boot id, trimmed; empty when the content is blank. */
	public static Optional<String> bootId(String content) {
		String trimmed = content.trim();
		return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed);
	}

	/**
	 * Whether a raw {@code /proc/<pid>/environ} carries our markers for this child: the
	 * subprocess marker, the exact installation and instance, and the exact name under
	 * its kind's key. Exact entries only: {@code greeter-staging} is not {@code greeter}.
	 * Works on the bytes, so that checking a process allocates nothing.
	 */
	public static boolean carriesMarkers(byte[] environ, Owner owner, ChildKind kind, String name) {
		return carriesOwner(environ, owner) && hasEntry(environ, kind.nameKey() + "=" + name);
	}

	/**
	 * The child a marked process claims to be, from its raw environ: present only when it
	 * carries the subprocess marker, this installation and this instance, and names
	 * exactly one child.
	 */
	public static Optional<MarkedProcess> claimedChild(long pid, byte[] environ, Owner owner) {
		if (!carriesOwner(environ, owner)) {
			return Optional.empty();
		}
		MarkedProcess found = null;
		for (String entry : environ(environ)) {
			for (ChildKind kind : ChildKind.values()) {
				String prefix = kind.nameKey() + "=";
				if (entry.startsWith(prefix)) {
					if (found != null) {
						return Optional.empty();
					}
					found = new MarkedProcess(pid, kind, entry.substring(prefix.length()));
				}
			}
		}
		return Optional.ofNullable(found);
	}

	private static boolean carriesOwner(byte[] environ, Owner owner) {
		return hasEntry(environ, ChildMarkers.SUBPROCESS_MARKER_ENV + "=1")
				&& hasEntry(environ, ChildMarkers.INSTALLATION_ENV + "=" + owner.installationId())
				&& hasEntry(environ, ChildMarkers.INSTANCE_ENV + "=" + owner.instanceId());
	}

	/** Whether a NUL-separated environ holds exactly this entry. */
	static boolean hasEntry(byte[] environ, String entry) {
		byte[] wanted = entry.getBytes(StandardCharsets.UTF_8);
		int start = 0;
		for (int i = 0; i <= environ.length; i++) {
			if (i == environ.length || environ[i] == 0) {
				if (i - start == wanted.length && Arrays.equals(environ, start, i, wanted, 0, wanted.length)) {
					return true;
				}
				start = i + 1;
			}
		}
		return false;
	}

}
