package dev.tether.supervisor.internal.spawn;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.UnsafeDirectoryException;
import dev.tether.supervisor.internal.files.PrivateDirectory;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Chooses how children are tied to the supervisor's life and builds the command line that
 * does it: the native launcher from the core jar, else {@code setpriv --pdeathsig}, else
 * nothing.
 */
final class ParentDeath {

	private static final Logger logger = LoggerFactory.getLogger(ParentDeath.class);

	private static final String LAUNCHER = "tether-launcher";

	private static final String SHEPHERD_MODE = "--shepherd";

	private final ParentDeathMechanism mechanism;

	private final int signal;

	private final Path program;

	private final long supervisorPid = ProcessHandle.current().pid();

	private final @Nullable String warning;

	private ParentDeath(ParentDeathMechanism mechanism, int signal, Path program, @Nullable String warning) {
		this.mechanism = mechanism;
		this.signal = signal;
		this.program = program;
		this.warning = warning;
	}

	/**
	 * Picks the first allowed mechanism that runs here.
	 * @param signal the parent-death signal, 0 for none
	 * @param allowed the mechanisms that may be used, in order of preference
	 * @param launcherDirectory where the launcher is extracted (a private directory is
	 * made under it)
	 */
	static ParentDeath resolve(int signal, Set<ParentDeathMechanism> allowed, Path launcherDirectory) {
		if (signal == 0) {
			return new ParentDeath(ParentDeathMechanism.NONE, 0, null, null);
		}
		if (!Posix.isLinux()) {
			return none("there is no parent-death signal on " + System.getProperty("os.name"));
		}
		if (allowed.contains(ParentDeathMechanism.LAUNCHER)) {
			try {
				Path launcher = extractLauncher(launcherDirectory);
				if (launcher != null && runs(List.of(launcher.toString(), "--self-test"))) {
					return new ParentDeath(ParentDeathMechanism.LAUNCHER, signal, launcher, null);
				}
				logger.warn("The parent-death launcher cannot run here ({}); trying setpriv",
						(launcher != null) ? launcher : "none packaged for " + platform());
			}
			catch (IOException | UnsafeDirectoryException ex) {
				logger.warn("The parent-death launcher could not be extracted to {}: {}; trying setpriv",
						launcherDirectory, ex.getMessage());
			}
		}
		if (allowed.contains(ParentDeathMechanism.SETPRIV)) {
			Path setpriv = findOnPath("setpriv");
			if (setpriv != null && runs(List.of(setpriv.toString(), "--pdeathsig", Posix.signalName(signal), "--",
					"/bin/sh", "-c", "exit 0"))) {
				return new ParentDeath(ParentDeathMechanism.SETPRIV, signal, setpriv, null);
			}
		}
		return none("neither the parent-death launcher nor setpriv --pdeathsig runs here"
				+ (Posix.get().isAvailable() ? "" : " (and no native backend could bind libc)"));
	}

	/** No mechanism although a signal was asked for: said at WARN, once. */
	private static ParentDeath none(String why) {
		String warning = why + ": children and their descendants outlive this JVM if it is killed with SIGKILL "
				+ "(until the next start stops them as orphans)";
		logger.warn("No parent-death signal is in force: {}", warning);
		return new ParentDeath(ParentDeathMechanism.NONE, 0, null, warning);
	}

	ParentDeathMechanism mechanism() {
		return this.mechanism;
	}

	/**
	 * Why children are not tied to this JVM's life although a parent-death signal was
	 * asked for, or {@code null} when they are (or none was asked for).
	 */
	@Nullable String warning() {
		return this.warning;
	}

	/** The launcher or {@code setpriv} binary in use, or {@code null}. */
	Path program() {
		return this.program;
	}

	/** The path handed to {@code posix_spawnp}. */
	String spawnedPath(Path executable) {
		return (this.program != null) ? this.program.toString() : executable.toString();
	}

	/**
	 * The argv of the spawn: the wrapper's, then the command's.
	 * @param workingDirectory the directory the launcher changes to before it runs the
	 * command, or {@code null}; only the launcher changes directory
	 * @param settings the command's limits and OOM score, which only the launcher applies
	 * (empty otherwise)
	 */
	List<String> argv(Path executable, List<String> command, @Nullable Path workingDirectory,
			CommandSettings settings) {
		if (workingDirectory != null && this.mechanism != ParentDeathMechanism.LAUNCHER) {
			throw new IllegalArgumentException("only the launcher changes directory, not " + this.mechanism.id());
		}
		return switch (this.mechanism) {
			case LAUNCHER -> launcherArgv(executable, command, workingDirectory, settings, List.of());
			case SETPRIV -> {
				List<String> argv = new ArrayList<>();
				argv.add(this.program.toString());
				argv.add("--pdeathsig");
				argv.add(Posix.signalName(this.signal));
				argv.add("--");
				argv.add(executable.toString());
				argv.addAll(command.subList(1, command.size()));
				yield argv;
			}
			case NONE -> new ArrayList<>(command);
		};
	}

	/**
	 * The argv of a spawn through the launcher's shepherd mode, which stays as the
	 * process spawned and contains every descendant of the command (see
	 * {@code tether-shepherd.c}); only with the launcher in force.
	 * @param heldOutputs how many output pipes' read ends the spawn gives the shepherd to
	 * hold (descriptors 3 up)
	 */
	List<String> shepherdArgv(Path executable, List<String> command, @Nullable Path workingDirectory,
			CommandSettings settings, int heldOutputs) {
		if (this.mechanism != ParentDeathMechanism.LAUNCHER) {
			throw new IllegalStateException("A shepherd needs the launcher, not " + this.mechanism.id());
		}
		List<String> mode = new ArrayList<>(List.of(SHEPHERD_MODE));
		if (heldOutputs > 0) {
			mode.add("--hold-output");
			mode.add(Integer.toString(heldOutputs));
		}
		return launcherArgv(executable, command, workingDirectory, settings, mode);
	}

	/**
	 * The launcher's argv: its directory and settings, then {@code mode}'s options, the
	 * signal, this JVM's pid, and the command.
	 */
	private List<String> launcherArgv(Path executable, List<String> command, @Nullable Path workingDirectory,
			CommandSettings settings, List<String> mode) {
		List<String> argv = new ArrayList<>();
		argv.add(this.program.toString());
		if (workingDirectory != null) {
			argv.add("--chdir");
			argv.add(workingDirectory.toString());
		}
		argv.addAll(settings.launcherOptions());
		argv.addAll(mode);
		argv.add(Integer.toString(this.signal));
		argv.add(Long.toString(this.supervisorPid));
		argv.add(executable.toString());
		argv.addAll(command);
		return argv;
	}

	static String platform() {
		return "linux-" + architecture(System.getProperty("os.arch"));
	}

	/**
	 * The directory name of an architecture's launcher in the jar: the JDK's
	 * {@code os.arch} on that machine, whichever name the running JDK uses for it.
	 * @param osArch the value of {@code os.arch}
	 */
	static String architecture(String osArch) {
		// Why both names: JDKs report amd64 and aarch64, but some builds report x86_64
		// (as uname does) and arm64 (as macOS does).
		return switch (osArch) {
			case "amd64", "x86_64" -> "amd64";
			case "aarch64", "arm64" -> "aarch64";
			default -> osArch;
		};
	}

	private static Path extractLauncher(Path directory) throws IOException {
		String resource = "/META-INF/tether/native/" + platform() + "/" + LAUNCHER;
		byte[] content;
		try (InputStream in = ParentDeath.class.getResourceAsStream(resource)) {
			if (in == null) {
				return null;
			}
			content = in.readAllBytes();
		}
		// Why a directory named by the content hash: two versions of Tether never
		// overwrite each other's launcher.
		Path privateDirectory = directory.resolve("launcher-" + sha256(content).substring(0, 16));
		Path launcher = privateDirectory.resolve(LAUNCHER);
		// Why every directory up to /: the launcher is executed by path at every spawn,
		// so the file checked here stays the file executed only if no other user can
		// rename, replace or write anything on its path.
		PrivateDirectory.check(privateDirectory);
		createPrivateDirectory(directory);
		createPrivateDirectory(privateDirectory);
		if (isLauncher(launcher, content)) {
			return launcher;
		}
		Path temporary = Files.createTempFile(privateDirectory, LAUNCHER, ".tmp",
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		Files.write(temporary, content);
		Files.move(temporary, launcher, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		return launcher;
	}

	private static boolean isLauncher(Path launcher, byte[] content) throws IOException {
		if (!Files.isRegularFile(launcher, LinkOption.NOFOLLOW_LINKS) || !Files.isExecutable(launcher)
				|| Files.size(launcher) != content.length) {
			return false;
		}
		try (InputStream in = Files.newInputStream(launcher, LinkOption.NOFOLLOW_LINKS)) {
			return sha256(in.readAllBytes()).equals(sha256(content));
		}
	}

	private static void createPrivateDirectory(Path directory) throws IOException {
		if (!Files.isDirectory(directory)) {
			Files.createDirectories(directory,
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		}
		// Why uids, not names: a uid without a passwd entry (containers run as --user
		// 12345) has no name, and user.name is then '?', which no owner name matches.
		int owner = (int) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS);
		int self = PrivateDirectory.effectiveUid();
		if (owner != self) {
			throw new IOException(directory + " belongs to uid " + owner + ", not to this process's uid " + self);
		}
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
	}

	private static boolean runs(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return false;
			}
			return process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static Path findOnPath(String name) {
		try {
			return ExecutableResolver.resolve(name, System.getenv("PATH"), Path.of("").toAbsolutePath());
		}
		catch (SpawnException ex) {
			return null;
		}
	}

	private static String sha256(byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
