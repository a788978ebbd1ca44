package dev.tether.supervisor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.registry.ChildRegistry;

/**
 * Builds a {@link Supervisor}: {@code Supervisor.builder()...build()}.
 */
public final class SupervisorBuilder {

	String installationId = "default";

	int parentDeathSignal = 15;

	@Nullable Path launcherDirectory;

	@Nullable ChildRegistry registry;

	OrphanPolicy orphanPolicy = OrphanPolicy.STOP;

	@Nullable Path logDirectory;

	LongSupplier clock = System::nanoTime;

	@Nullable Long descriptorReserve;

	final List<SupervisorListener> listeners = new ArrayList<>();

	final List<ChildSpec> children = new ArrayList<>();

	SupervisorBuilder() {
	}

	public SupervisorBuilder installationId(String installationId) {
		this.installationId = installationId;
		return this;
	}

	/**
	 * The signal a child receives when the JVM dies (SIGTERM, 15, by default; 0 for
	 * none). Through the launcher it is armed before the command executes; see
	 * {@link ParentDeathMechanism}.
	 */
	public SupervisorBuilder parentDeathSignal(int signal) {
		this.parentDeathSignal = signal;
		return this;
	}

	/**
	 * The private directory the parent-death launcher is compiled into or copied to
	 * (required; checked like the state directory: ours, not writable by others).
	 */
	public SupervisorBuilder launcherDirectory(Path launcherDirectory) {
		this.launcherDirectory = launcherDirectory;
		return this;
	}

	public SupervisorBuilder registry(ChildRegistry registry) {
		this.registry = registry;
		return this;
	}

	public SupervisorBuilder orphanPolicy(OrphanPolicy orphanPolicy) {
		this.orphanPolicy = orphanPolicy;
		return this;
	}

	/** Where child logs go unless a child names its own file. */
	public SupervisorBuilder logDirectory(Path logDirectory) {
		this.logDirectory = logDirectory;
		return this;
	}

	/**
	 * The monotonic clock, in nanoseconds, that backoff, the breaker window,
	 * stable-after, startup and stop timeouts are measured with
	 * ({@link System#nanoTime()} by default; a test can pass one it moves itself).
	 */
	public SupervisorBuilder clock(LongSupplier nanoTime) {
		this.clock = nanoTime;
		return this;
	}

	/**
	 * Descriptors a start must leave to the application (by default the larger of 1,024
	 * and a tenth of the soft {@code RLIMIT_NOFILE}); see {@link DescriptorUse}.
	 */
	public SupervisorBuilder descriptorReserve(long reserve) {
		if (reserve < 0) {
			throw new IllegalArgumentException("descriptorReserve must not be negative (was " + reserve + ")");
		}
		this.descriptorReserve = reserve;
		return this;
	}

	public SupervisorBuilder listener(SupervisorListener listener) {
		this.listeners.add(listener);
		return this;
	}

	public SupervisorBuilder child(ChildSpec spec) {
		this.children.add(spec);
		return this;
	}

	public Supervisor build() {
		return new Supervisor(this);
	}

}
