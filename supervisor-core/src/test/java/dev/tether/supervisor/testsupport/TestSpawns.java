package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.awaitility.Awaitility;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * Spawns marked test children through a {@link Spawner} and ends every one of them at
 * {@link #close()}.
 */
public final class TestSpawns implements AutoCloseable {

	private final Spawner spawner;

	private final Path logDirectory;

	private final Owner owner = new Owner(TestRun.installationId("spawns"), "spawns");

	private final List<Long> spawned = new ArrayList<>();

	private final Map<Long, ExitStatus> exits = new ConcurrentHashMap<>();

	private final Map<Long, Integer> deliveries = new ConcurrentHashMap<>();

	private final List<ChildOutput> captured = new CopyOnWriteArrayList<>();

	public TestSpawns(Spawner spawner, Path logDirectory) {
		this.spawner = spawner;
		this.logDirectory = logDirectory;
	}

	public String installationId() {
		return this.owner.installationId();
	}

	/** The installation and instance every child of these spawns carries. */
	public Owner owner() {
		return this.owner;
	}

	public Spawner spawner() {
		return this.spawner;
	}

	/** The environment of a marked child. */
	public Map<String, String> environment(ChildKind kind, String name) {
		return ChildMarkers.stamp(System.getenv(), Map.of(), this.owner, kind, name);
	}

	public SpawnedChild spawn(String name, String... command) throws SpawnException {
		return spawn(name, false, command);
	}

	/** Spawns a child under a shepherd that contains all of its descendants. */
	public SpawnedChild spawnShepherded(String name, String... command) throws SpawnException {
		return spawn(name, true, command);
	}

	/** Spawns a child whose output is read through pipes into {@code output}'s sinks. */
	public SpawnedChild spawnCaptured(ChildOutput output, String... command) throws SpawnException {
		return spawnCaptured(output, false, command);
	}

	/**
	 * Spawns a child whose output is read through pipes, under a shepherd if
	 * {@code containDescendants}.
	 */
	public SpawnedChild spawnCaptured(ChildOutput output, boolean containDescendants, String... command)
			throws SpawnException {
		this.captured.add(output);
		return spawn(new SpawnRequest(List.of(command), environment(ChildKind.AGENT, output.child()), null,
				this.logDirectory.resolve(output.child() + ".log"), null, containDescendants, output));
	}

	private SpawnedChild spawn(String name, boolean containDescendants, String... command) throws SpawnException {
		return spawn(new SpawnRequest(List.of(command), environment(ChildKind.AGENT, name), null,
				this.logDirectory.resolve(name + ".log"), null, containDescendants));
	}

	private SpawnedChild spawn(SpawnRequest request) throws SpawnException {
		SpawnedChild child = this.spawner.spawn(request, (pid, status) -> {
			this.deliveries.merge(pid, 1, Integer::sum);
			this.exits.put(pid, status);
		});
		synchronized (this.spawned) {
			this.spawned.add(child.pid());
		}
		return child;
	}

	/** The exit delivered for a pid, or {@code null}. */
	public ExitStatus exitOf(long pid) {
		return this.exits.get(pid);
	}

	/**
	 * How many times an exit was delivered for a pid: 1 once it has exited, never more.
	 */
	public int deliveriesOf(long pid) {
		return this.deliveries.getOrDefault(pid, 0);
	}

	@Override
	public void close() {
		List<Long> pids;
		synchronized (this.spawned) {
			pids = List.copyOf(this.spawned);
		}
		pids.forEach((pid) -> Reaper.shared().signalGroupUnreaped(pid, 9));
		Reaper.shared().drain();
		Awaitility.await("test children reaped")
			.atMost(Duration.ofSeconds(10))
			.until(() -> Set.copyOf(pids).stream().allMatch(this.exits::containsKey));
		// Why: a child's pump goes on writing (and rotating) its file from what is left
		// in the pipe after the child is gone; a test's directory is deleted once this
		// returns, and must not gain a file meanwhile.
		for (ChildOutput output : this.captured) {
			try {
				if (!output.awaitDrained(Duration.ofSeconds(10))) {
					throw new IllegalStateException("The output of " + output.child() + " was not drained in 10 s");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		this.spawner.close();
	}

}
