package dev.tether.supervisor.internal.supervision;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.SupervisorListener;
import dev.tether.supervisor.registry.ChildRegistry;

/**
 * What an engine is built from: the supervisor's settings, checked by its builder.
 *
 * @param installationId written into every child's environment
 * @param parentDeathSignal the signal a child receives when the JVM dies (0: none)
 * @param launcherDirectory the private directory of the parent-death launcher
 * @param registry where children's rows are kept
 * @param orphanPolicy what a reconciliation does with an orphan of ours
 * @param logDirectory where children's output files go
 * @param clock the monotonic clock, in nanoseconds
 * @param listeners who hears of every child's transitions, in order
 * @param children the children registered before the first start
 * @param descriptorReserve descriptors a start must leave to the application, or
 * {@code null} for the default (see {@link DescriptorUse})
 */
public record EngineSettings(String installationId, int parentDeathSignal, Path launcherDirectory,
		ChildRegistry registry, OrphanPolicy orphanPolicy, Path logDirectory, LongSupplier clock,
		List<SupervisorListener> listeners, List<ChildSpec> children, @Nullable Long descriptorReserve) {

	public EngineSettings {
		Objects.requireNonNull(installationId, "installationId");
		Objects.requireNonNull(launcherDirectory, "launcherDirectory");
		Objects.requireNonNull(registry, "registry");
		Objects.requireNonNull(logDirectory, "logDirectory");
		listeners = List.copyOf(listeners);
		children = List.copyOf(children);
	}

}
