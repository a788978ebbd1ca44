package dev.tether.supervisor.internal.identity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Verifies identity from {@code /proc/<pid>/environ} and {@code /proc/<pid>/stat}. Fails
 * closed: anything it cannot read or parse is never {@code OURS}.
 */
final class ProcIdentityProbe implements IdentityProbe {

	private static final Path PROC = Path.of("/proc");

	private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

	private static final int EMPTY_ENVIRON_RETRIES = 5;

	private static final long EMPTY_ENVIRON_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	private volatile Optional<String> bootId;

	@Override
	public boolean isAvailable() {
		return Files.isDirectory(PROC.resolve("self"));
	}

	@Override
	public Verdict verify(ExpectedIdentity expected) {
		if (!IdentityProbe.signalablePid(expected.pid())) {
			return Verdict.NOT_OURS;
		}
		StatRead read = readStat(expected.pid());
		ProcStat first = read.live();
		if (first == null) {
			return read.verdictWithoutLiveStat();
		}
		if (expected.bootId() != null) {
			Optional<String> bootId = bootId();
			if (bootId.isEmpty()) {
				return Verdict.UNVERIFIABLE;
			}
			if (!bootId.get().equals(expected.bootId())) {
				return Verdict.NOT_OURS;
			}
		}
		if (expected.startTime() != null && expected.startTime() != first.startTime()) {
			return Verdict.NOT_OURS;
		}
		for (int attempt = 0;; attempt++) {
			byte[] environ;
			try {
				environ = ProcFiles.read(PROC.resolve(Long.toString(expected.pid())).resolve("environ"));
			}
			catch (NoSuchFileException ex) {
				return Verdict.GONE;
			}
			catch (IOException ex) {
				return stillAlive(expected.pid(), first) ? Verdict.UNVERIFIABLE : Verdict.GONE;
			}
			// Why: between fork and exec the new image's environ reads empty for a
			// moment; a short retry while the same process is alive avoids calling our
			// own child unverifiable.
			if (environ.length == 0) {
				if (!stillAlive(expected.pid(), first)) {
					return Verdict.GONE;
				}
				if (attempt >= EMPTY_ENVIRON_RETRIES) {
					return Verdict.UNVERIFIABLE;
				}
				LockSupport.parkNanos(EMPTY_ENVIRON_PAUSE_NANOS);
				continue;
			}
			if (!ProcParsers.carriesMarkers(environ, expected.owner(), expected.kind(), expected.name())) {
				return Verdict.NOT_OURS;
			}
			// Why: the pid may have died and been reused while we read; the markers count
			// only if they belong to the process whose stat we checked.
			return stillAlive(expected.pid(), first) ? Verdict.OURS : Verdict.GONE;
		}
	}

	private boolean stillAlive(long pid, ProcStat before) {
		ProcStat now = readStat(pid).live();
		return now != null && now.startTime() == before.startTime();
	}

	private StatRead readStat(long pid) {
		String content;
		try {
			content = new String(ProcFiles.read(PROC.resolve(Long.toString(pid)).resolve("stat")),
					StandardCharsets.UTF_8);
		}
		catch (NoSuchFileException ex) {
			return new StatRead(null, Verdict.GONE);
		}
		catch (AccessDeniedException ex) {
			return new StatRead(null, Verdict.UNVERIFIABLE);
		}
		catch (IOException ex) {
			return new StatRead(null,
					Files.exists(PROC.resolve(Long.toString(pid))) ? Verdict.UNVERIFIABLE : Verdict.GONE);
		}
		Optional<ProcStat> stat = ProcParsers.stat(pid, content);
		if (stat.isEmpty()) {
			return new StatRead(null, Verdict.UNVERIFIABLE);
		}
		return new StatRead(stat.get(), Verdict.GONE);
	}

	@Override
	public boolean hasExited(long pid) {
		return stat(pid).map(ProcStat::hasExited).orElse(false);
	}

	@Override
	public Optional<ProcStat> stat(long pid) {
		return Optional.ofNullable(readStat(pid).stat);
	}

	@Override
	public Optional<String> bootId() {
		// Why cached: the boot id cannot change while this JVM runs, and reconciliation
		// asks for it once per row.
		Optional<String> known = this.bootId;
		if (known == null) {
			try {
				known = ProcParsers.bootId(Files.readString(BOOT_ID, StandardCharsets.US_ASCII));
			}
			catch (IOException ex) {
				known = Optional.empty();
			}
			this.bootId = known;
		}
		return known;
	}

	@Override
	public List<MarkedProcess> scanMarked(Owner owner, Set<Long> skip) {
		List<MarkedProcess> found = new ArrayList<>();
		long self = ProcessHandle.current().pid();
		OptionalLong uid = realUid(PROC.resolve("self"));
		if (uid.isEmpty()) {
			return List.of();
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
			for (Path entry : entries) {
				long pid = parsePid(entry.getFileName().toString());
				if (pid <= 1 || pid == self || skip.contains(pid)) {
					continue;
				}
				try {
					ProcParsers.claimedChild(pid, ProcFiles.read(entry.resolve("environ")), owner)
						.filter((marked) -> !hasExited(pid) && isOfThisUser(entry, uid))
						.ifPresent(found::add);
				}
				catch (IOException ex) {
					// Gone meanwhile, or not readable: not provably ours, so not listed.
				}
			}
		}
		catch (IOException ex) {
			return List.of();
		}
		return found;
	}

	/**
	 * Whether the process runs under this JVM's real uid. Why: markers are only
	 * environment entries; another user's process can copy them (root reads every
	 * environ), and a process of another user is never ours. The real uid, not the
	 * effective one: a child that runs a set-user-ID program is still ours.
	 */
	private static boolean isOfThisUser(Path process, OptionalLong uid) {
		return realUid(process).equals(uid);
	}

	private static OptionalLong realUid(Path process) {
		try {
			return ProcParsers.realUid(new String(ProcFiles.read(process.resolve("status")), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			return OptionalLong.empty();
		}
	}

	private static long parsePid(String name) {
		for (int i = 0; i < name.length(); i++) {
			if (!Character.isDigit(name.charAt(i))) {
				return -1;
			}
		}
		return name.isEmpty() ? -1 : Long.parseLong(name);
	}

	/**
	 * One read of {@code /proc/<pid>/stat}.
	 *
	 * @param stat what it says, or {@code null} when it could not be read or parsed
	 * @param verdictWithoutLiveStat the verdict when {@code stat} is absent or a zombie's
	 */
	private record StatRead(@Nullable ProcStat stat, Verdict verdictWithoutLiveStat) {

		@Nullable ProcStat live() {
			return (this.stat != null && !this.stat.hasExited()) ? this.stat : null;
		}

	}

}
