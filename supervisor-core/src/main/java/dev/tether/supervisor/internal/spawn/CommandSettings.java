package dev.tether.supervisor.internal.spawn;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.LimitedResource;
import dev.tether.supervisor.internal.os.HandedSocket;

/**
 * What the launcher sets on a command just before its exec (see
 * {@code tether-settings.c}): resource limits, its OOM score adjustment, variables that
 * carry its own pid, and the listening socket it is handed. Only the launcher can: a
 * spawn without it refuses a request that has limits, a score or a socket (see
 * {@link Spawner#spawn}); the pid variables are then left out, as a program that reads
 * them treats them as optional ({@code sd_watchdog_enabled} without {@code WATCHDOG_PID}
 * accepts any pid).
 *
 * @param limits the limits, each by the launcher's name of its resource
 * @param oomScoreAdjust the command's {@code oom_score_adj}, or {@code null} to inherit
 * @param pidVariables environment variables set to the command's own pid, such as
 * {@code WATCHDOG_PID}: only between fork and exec is that pid known (under a shepherd,
 * the command is its child)
 * @param socket the listening socket the command gets (socket activation), or
 * {@code null}
 */
public record CommandSettings(List<Limit> limits, @Nullable Integer oomScoreAdjust, List<String> pidVariables,
		@Nullable HandedSocket socket) {

	/** Nothing set: the command inherits the JVM's limits and score. */
	public static final CommandSettings NONE = new CommandSettings(List.of(), null);

	public CommandSettings {
		limits = List.copyOf(limits);
		pidVariables = List.copyOf(pidVariables);
	}

	/** Limits and a score, no pid variable, no socket. */
	public CommandSettings(List<Limit> limits, @Nullable Integer oomScoreAdjust) {
		this(limits, oomScoreAdjust, List.of(), null);
	}

	/** Whether a spawn without the launcher must refuse these settings. */
	boolean needLauncher() {
		return !this.limits.isEmpty() || this.oomScoreAdjust != null || this.socket != null;
	}

	/** The launcher's options that carry these settings. */
	List<String> launcherOptions() {
		List<String> options = new ArrayList<>();
		for (Limit limit : this.limits) {
			options.add("--limit");
			options.add(launcherName(limit.resource()));
			options.add(value(limit.soft()));
			options.add(value(limit.hard()));
		}
		if (this.oomScoreAdjust != null) {
			options.add("--oom-score-adjust");
			options.add(Integer.toString(this.oomScoreAdjust));
		}
		for (String variable : this.pidVariables) {
			options.add("--pid-env");
			options.add(variable);
		}
		if (this.socket != null && !this.socket.asStdin()) {
			options.add("--listen-socket");
		}
		return options;
	}

	// Why here: the launcher's names (tether-settings.c) are the spawn's business, not
	// the API's.
	private static String launcherName(LimitedResource resource) {
		return switch (resource) {
			case OPEN_FILES -> "nofile";
			case PROCESSES -> "nproc";
			case CORE_SIZE -> "core";
			case FILE_SIZE -> "fsize";
			case CPU_TIME -> "cpu";
			case ADDRESS_SPACE -> "as";
		};
	}

	private static String value(long value) {
		return (value == Long.MAX_VALUE) ? "infinity" : Long.toString(value);
	}

	/**
	 * One limit.
	 *
	 * @param soft the limit enforced; {@link Long#MAX_VALUE} for none
	 * @param hard its ceiling; {@link Long#MAX_VALUE} for none
	 */
	public record Limit(LimitedResource resource, long soft, long hard) {
	}

}
