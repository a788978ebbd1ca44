package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What this process may give its children: its hard limits, whether it may raise them ({@code CAP_SYS_RESOURCE}),
 * and its own OOM score adjustment; and the kernel's count of OOM kills. Read from {@code /proc}; empty where there is
 * none (not Linux).
 */
public final class ThisProcess {

	private ThisProcess() {
	}

	/**
	 * This process's hard limits by their {@code /proc/self/limits} row ({@code Max open files}, ...), which a child
	 * may not exceed without {@code CAP_SYS_RESOURCE}; {@link ResourceParsers#UNLIMITED} for none; empty when
	 * unreadable.
	 */
	public static Map<String, Long> hardLimits() {
		return read("/proc/self/limits").map(ResourceParsers::hardLimits).orElse(Map.of());
	}

	/**
	 * This process's soft limits by their {@code /proc/self/limits} row, which its own calls must stay within;
	 * {@link ResourceParsers#UNLIMITED} for none; empty when unreadable.
	 */
	public static Map<String, Long> softLimits() {
		return read("/proc/self/limits").map(ResourceParsers::softLimits).orElse(Map.of());
	}

	/** Whether this process may raise hard limits and lower OOM scores; {@code false} when unreadable. */
	public static boolean hasSysResource() {
		return read("/proc/self/status").map(ResourceParsers::hasSysResource).orElse(false);
	}

	/** This process's {@code oom_score_adj}, which a child may not go below without {@code CAP_SYS_RESOURCE}. */
	public static OptionalLong oomScoreAdjust() {
		try {
			return read("/proc/self/oom_score_adj").map((text) -> OptionalLong.of(Long.parseLong(text.trim())))
				.orElse(OptionalLong.empty());
		}
		catch (NumberFormatException ex) {
			return OptionalLong.empty();
		}
	}

	/** How many processes the kernel's OOM killer has killed since boot ({@code oom_kill}, Linux 4.13+). */
	public static OptionalLong oomKills() {
		return read("/proc/vmstat").map((content) -> ResourceParsers.vmstat(content, "oom_kill"))
			.orElse(OptionalLong.empty());
	}

	static Optional<String> read(String path) {
		try {
			return Optional.of(Files.readString(Path.of(path)));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

}
