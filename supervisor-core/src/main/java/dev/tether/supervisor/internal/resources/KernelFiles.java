package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a small file of the kernel's ({@code /proc}, {@code /proc/sys}, the cgroup file
 * system) whole, as text: the JVM's own limits and status, the kernel's counters and
 * settings.
 */
public final class KernelFiles {

	private static final int MAX_READ = 64 * 1024;

	private KernelFiles() {
	}

	/** The file's content; empty where it cannot be read. */
	public static Optional<String> read(Path file) {
		// Why one read into a buffer, not Files.readString: these files report a size of
		// 0, so the JDK reads a sysctl file's first byte alone first, and the kernel ends
		// a sysctl file at any later offset: somaxconn's "4096" would read as "4".
		try (InputStream in = Files.newInputStream(file)) {
			return Optional.of(new String(in.readNBytes(MAX_READ), StandardCharsets.US_ASCII));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** A file that holds one number, as a sysctl does; empty where it holds none. */
	public static OptionalLong number(Path file) {
		try {
			return read(file).map((text) -> OptionalLong.of(Long.parseLong(text.trim()))).orElse(OptionalLong.empty());
		}
		catch (NumberFormatException ex) {
			return OptionalLong.empty();
		}
	}

}
