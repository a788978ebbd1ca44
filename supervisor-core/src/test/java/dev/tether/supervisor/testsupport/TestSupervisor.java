package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * A supervisor over a temporary state directory, ticked every 20 ms, that records its
 * events and stops every child at {@link #close()}.
 */
public final class TestSupervisor implements AutoCloseable {

	private final Supervisor supervisor;

	private final List<ChildEvent> events = new CopyOnWriteArrayList<>();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();

	private final String installationId;

	private final Path stateDirectory;

	private final FileChildRegistry registry;

	public TestSupervisor(Path stateDirectory, List<ChildSpec> children) {
		this(stateDirectory, TestRun.installationId("supervisor"), OrphanPolicy.STOP, children, (builder) -> {
		});
	}

	public TestSupervisor(Path stateDirectory, String installationId, OrphanPolicy policy, List<ChildSpec> children,
			Consumer<SupervisorBuilder> customizer) {
		this.installationId = installationId;
		this.stateDirectory = stateDirectory;
		this.registry = FileChildRegistry.open(stateDirectory);
		SupervisorBuilder builder = Supervisor.builder()
			.installationId(installationId)
			.launcherDirectory(stateDirectory.resolve("launcher"))
			.registry(this.registry)
			.logDirectory(stateDirectory.resolve("logs"))
			.orphanPolicy(policy)
			.listener(this.events::add);
		children.forEach(builder::child);
		customizer.accept(builder);
		try {
			this.supervisor = builder.build();
		}
		catch (RuntimeException ex) {
			this.registry.close();
			throw ex;
		}
		this.ticker.scheduleWithFixedDelay(this.supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
	}

	public Supervisor supervisor() {
		return this.supervisor;
	}

	public String installationId() {
		return this.installationId;
	}

	public Path stateDirectory() {
		return this.stateDirectory;
	}

	/** The registry the supervisor saves to (locked by it while it runs). */
	public FileChildRegistry registry() {
		return this.registry;
	}

	public List<ChildEvent> events() {
		return this.events;
	}

	public List<ChildEvent> events(String child, ChildEvent.Type type) {
		return this.events.stream().filter((e) -> e.child().name().equals(child) && e.type() == type).toList();
	}

	@Override
	public void close() throws InterruptedException {
		this.ticker.shutdown();
		this.ticker.awaitTermination(5, TimeUnit.SECONDS);
		this.supervisor.close();
		// Why: a customizer may have given the supervisor a registry of its own; this one
		// is released either way.
		this.registry.close();
	}

}
