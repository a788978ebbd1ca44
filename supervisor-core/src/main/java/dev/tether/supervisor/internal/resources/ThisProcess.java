package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What this process may give its children: its hard limits, whether it may raise them
 * ({@code CAP_SYS_RESOURCE}), and its own OOM score adjustment; the kernel's page size
 * and its count of OOM kills. Read from {@code /proc}; empty where there is none (not
 * Linux).
 */
public final class ThisProcess {

	private static final long AT_PAGESZ = 6;

	private ThisProcess() {
	}

	/**
	 * This process's hard limits by their {@code /proc/self/limits} row
	 * ({@code Max open files}, ...), which a child may not exceed without
	 * {@code CAP_SYS_RESOURCE}; {@link ResourceParsers#UNLIMITED} for none; empty when
	 * unreadable.
	 */
	public static Map<String, Long> hardLimits() {
		return read("/proc/self/limits").map(ResourceParsers::hardLimits).orElse(Map.of());
	}

	/**
	 * This process's soft limits by their {@code /proc/self/limits} row, which its own
	 * calls must stay within; {@link ResourceParsers#UNLIMITED} for none; empty when
	 * unreadable.
	 */
	public static Map<String, Long> softLimits() {
		return read("/proc/self/limits").map(ResourceParsers::softLimits).orElse(Map.of());
	}

	/**
	 * Whether this process may raise hard limits and lower OOM scores; {@code false} when
	 * unreadable.
	 */
	public static boolean hasSysResource() {
		return read("/proc/self/status").map(ResourceParsers::hasSysResource).orElse(false);
	}

	/**
	 * This process's {@code oom_score_adj}, which a child may not go below without
	 * {@code CAP_SYS_RESOURCE}.
	 */
	public static OptionalLong oomScoreAdjust() {
		return KernelFiles.number(Path.of("/proc/self/oom_score_adj"));
	}

	/**
	 * How many processes the kernel's OOM killer has killed since boot ({@code oom_kill},
	 * Linux 4.13+).
	 */
	public static OptionalLong oomKills() {
		return read("/proc/vmstat").map((content) -> ResourceParsers.vmstat(content, "oom_kill"))
			.orElse(OptionalLong.empty());
	}

	/**
	 * The size of a memory page, in which {@code /proc/<pid>/statm} counts:
	 * {@code AT_PAGESZ} of this process's auxiliary vector, which the kernel gives every
	 * process at exec. Why not a constant: arm64 kernels are built with 4, 16 or 64 KB
	 * pages. Why 4096 when unreadable: no {@code /proc} means nothing is sampled anyway.
	 */
	public static long pageSize() {
		try {
			// Why pairs of 8-byte words in native order: the auxiliary vector of a 64-bit
			// process, the only kind the launcher is built for.
			ByteBuffer vector = ByteBuffer.wrap(Files.readAllBytes(Path.of("/proc/self/auxv")))
				.order(ByteOrder.nativeOrder());
			while (vector.remaining() >= 16) {
				long type = vector.getLong();
				long value = vector.getLong();
				if (type == AT_PAGESZ && value > 0) {
					return value;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Falls through to the default.
		}
		return 4096;
	}

	private static Optional<String> read(String path) {
		return KernelFiles.read(Path.of(path));
	}

}
