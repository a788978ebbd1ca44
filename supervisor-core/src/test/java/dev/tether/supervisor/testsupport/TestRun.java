package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * This test run: its id, the installation ids that carry it, and a private directory
 * removed when the JVM ends.
 * <p>
 * The id comes from the {@value #RUN_ENV} environment variable ({@code .ci/run} exports
 * one for every JVM of a build), else it is random for this JVM. Every installation id a
 * test uses starts with {@link #installationPrefix()} so that the leak check looks at
 * this run's processes only, never at another build's or an application's.
 */
public final class TestRun {

	/** The environment variable naming the run. */
	public static final String RUN_ENV = "TETHER_TEST_RUN";

	private static final String ID = resolveId();

	private static final Path DIRECTORY = createDirectory();

	private TestRun() {
	}

	private static String resolveId() {
		String fromEnvironment = System.getenv(RUN_ENV);
		if (fromEnvironment != null && fromEnvironment.matches("[a-z0-9]{1,16}")) {
			return fromEnvironment;
		}
		if (fromEnvironment != null) {
			throw new IllegalStateException(RUN_ENV + "=" + fromEnvironment + " must be 1 to 16 of [a-z0-9]");
		}
		return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
	}

	public static String id() {
		return ID;
	}

	/** {@code test-<run>-}: how every installation id of this run starts. */
	public static String installationPrefix() {
		return "test-" + ID + "-";
	}

	/** A fresh installation id of this run, with a word saying what uses it. */
	public static String installationId(String purpose) {
		return installationPrefix() + purpose + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * A subdirectory of the run's private directory (mode 0700, one per JVM, removed when
	 * the JVM ends), created if needed. Why: a fixed name in the shared temporary
	 * directory collides between users and parallel builds.
	 */
	public static Path directory(String name) {
		try {
			return Files.createDirectories(DIRECTORY.resolve(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot create " + DIRECTORY.resolve(name), ex);
		}
	}

	private static Path createDirectory() {
		try {
			Path directory = Files.createTempDirectory("tether-test-" + ID + "-",
					PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
			Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(directory), "test-run-cleanup"));
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot create the test run's directory", ex);
		}
	}

	/** Deletes a directory and everything in it; what cannot be deleted is left. */
	public static void deleteTree(Path root) {
		try {
			Files.walkFileTree(root, new SimpleFileVisitor<>() {

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
					Files.deleteIfExists(file);
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult postVisitDirectory(Path directory, IOException ex) throws IOException {
					Files.deleteIfExists(directory);
					return FileVisitResult.CONTINUE;
				}

			});
		}
		catch (IOException ex) {
			// Left for the operating system's temporary-file cleaning.
		}
	}

}
