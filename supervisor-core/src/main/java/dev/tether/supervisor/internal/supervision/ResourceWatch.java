package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ChildUsage;
import dev.tether.supervisor.ResourceLimits;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.internal.resources.TreeSampler;
import dev.tether.supervisor.internal.spawn.Shepherd;

/**
 * What each child's tree uses, sampled from {@code /proc} outside the supervisor's lock:
 * on demand for {@link Supervisor#usage}, cached briefly so that a scrape of every meter
 * reads each tree once, and on the tick for children with {@code max-memory}, once per
 * {@link #MEMORY_PERIOD}, restarting a child whose tree stays above it. No thread of its
 * own, and nothing sampled for a child nobody asks about.
 * <p>
 * Each sampled tree keeps its processes' {@code /proc} files open between samples (up to
 * three per process, see {@link TreeSampler}), within the samplers' share of the
 * descriptors. They are released at the first sweep (on the tick, at most once per
 * {@link #SWEEP_PERIOD}) after the child's process changed or ended, after the child was
 * removed, or once nobody sampled the tree for {@link #IDLE}; all of them when the
 * supervisor closes.
 */
final class ResourceWatch {

	// Why a period, not every tick: a walk of a tree's /proc entries costs tens to
	// hundreds of microseconds per process (docs/benchmarks.md), and at every 200 ms tick
	// 1,000 children would cost a large part of a core; memory that grows past a limit is
	// caught within a second or two, as PM2 and memmon do in seconds to minutes. A tree
	// above 80 % of its limit is sampled at every tick instead, until it drops below.
	static final Duration MEMORY_PERIOD = Duration.ofSeconds(1);

	/**
	 * How long a sample answers {@link Supervisor#usage}: one scrape of a child's meters
	 * reads its tree once.
	 */
	static final Duration CACHE = Duration.ofMillis(500);

	// Why two minutes: longer than the scrape interval of nearly every Prometheus set-up
	// (15 s to 1 min, 1 min by default) with room for a late scrape, so a scraped child
	// keeps its files between scrapes, while one nobody looks at any more gives them back
	// within minutes.
	static final Duration IDLE = Duration.ofMinutes(2);

	// Why a period: a sweep looks at every sampled tree under the supervisor's lock; once
	// a second bounds how long a restarted or removed child's files stay open, at a cost
	// the tick does not notice.
	static final Duration SWEEP_PERIOD = Duration.ofSeconds(1);

	private final ChildTable children;

	private final StopTargets targets;

	private final LongSupplier clock;

	// Why not weak keys: a tree holds open files, which must be closed, not left to the
	// collector; the sweep drops the trees of removed children.
	private final Map<SupervisedChild, Tree> trees = new HashMap<>();

	private long nextSweep;

	/** The children's departures the last sweep that looked at every tree saw. */
	private int departuresSwept;

	ResourceWatch(ChildTable children, StopTargets targets, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.clock = clock;
	}

	/**
	 * The process a child has now, as sampling needs it; {@code null} without one. Call
	 * it holding the lock.
	 */
	static @Nullable SampledTree seen(SupervisedChild child) {
		ChildProcess process = child.process();
		if (process == null) {
			return null;
		}
		Long command = child.command().known(process) ? child.command().pid(child.name(), process) : null;
		return new SampledTree(child, process, (command != null) ? command : -1);
	}

	/** What the named child's tree uses, if it is registered; call it holding no lock. */
	Optional<ChildUsage> usage(String name) {
		SupervisedChild child;
		SampledTree seen;
		synchronized (this.children) {
			child = this.children.find(name);
			seen = (child != null) ? seen(child) : null;
		}
		return Optional.ofNullable(child).map((found) -> usage(found, seen));
	}

	private ChildUsage usage(SupervisedChild child, @Nullable SampledTree seen) {
		this.children.assertNotHeld();
		return tree(child).usage(seen, this.clock.getAsLong(), CACHE.toNanos());
	}

	/**
	 * Samples, once per {@link #MEMORY_PERIOD}, each child with {@code max-memory} as the
	 * tick saw it, and restarts one whose tree was above it for
	 * {@code max-memory-samples} samples in a row. Call it holding no lock.
	 */
	void checkMemory(List<SampledTree> limited) {
		this.children.assertNotHeld();
		for (SampledTree seen : limited) {
			ResourceLimits resources = seen.child().spec().resources();
			Long max = resources.maxMemory();
			Tree tree = tree(seen.child());
			String reason = (max != null)
					? tree.checkMemory(seen, max, resources.maxMemorySamples(), this.clock.getAsLong()) : null;
			if (reason == null) {
				continue;
			}
			synchronized (this.children) {
				SupervisedChild child = seen.child();
				if (child.process() == seen.process() && child.state() != ChildState.STOPPING) {
					tree.restartedForMemory();
					child.checkFailed(seen.process(), reason, this.targets.of(child, seen.process()),
							this.clock.getAsLong());
				}
			}
		}
	}

	/**
	 * Releases, at most once per {@link #SWEEP_PERIOD}, the files of trees whose child's
	 * process changed or ended, whose child was removed, or that nobody sampled for
	 * {@link #IDLE}; forgets removed children. Call it on the tick, holding no lock.
	 * <p>
	 * Why only the trees that keep files, unless a child has departed since: past the
	 * samplers' share (6,400 children of a limit of 20,000) most trees are read by path
	 * and keep nothing to release, and looking at all of them once a second made the
	 * sweep the tick's longest part (4 ms, up to 38 ms beside an endpoint's answer).
	 */
	void sweep() {
		this.children.assertNotHeld();
		long now = this.clock.getAsLong();
		synchronized (this.trees) {
			if (now - this.nextSweep < 0 || this.trees.isEmpty()) {
				return;
			}
			this.nextSweep = now + SWEEP_PERIOD.toNanos();
		}
		// Why read once a sweep is due, in a hold of its own: the supervisor's lock is
		// taken 5 times a second otherwise, and never inside the trees' lock.
		int departures;
		synchronized (this.children) {
			departures = this.children.departures();
		}
		List<SupervisedChild> watched = new ArrayList<>();
		List<Tree> sampled = new ArrayList<>();
		synchronized (this.trees) {
			boolean everyTree = departures != this.departuresSwept;
			this.departuresSwept = departures;
			// Why the trees taken with their children, in one hold: a look-up and a
			// hold per tree made a sweep of 6,000 trees the longest tick.
			for (Map.Entry<SupervisedChild, Tree> tree : this.trees.entrySet()) {
				if (everyTree || tree.getValue().keepsFiles) {
					watched.add(tree.getKey());
					sampled.add(tree.getValue());
				}
			}
		}
		List<@Nullable ChildProcess> processes = new ArrayList<>(watched.size());
		List<SupervisedChild> removed = new ArrayList<>();
		synchronized (this.children) {
			for (SupervisedChild child : watched) {
				boolean present = this.children.find(child.name()) == child;
				processes.add(present ? child.process() : null);
				if (!present) {
					removed.add(child);
				}
			}
		}
		if (!removed.isEmpty()) {
			synchronized (this.trees) {
				removed.forEach(this.trees::remove);
			}
		}
		for (int i = 0; i < watched.size(); i++) {
			sampled.get(i).release(processes.get(i), now);
		}
	}

	/** Closes every tree's files; call it when the supervisor closes, holding no lock. */
	void close() {
		List<Tree> closing;
		synchronized (this.trees) {
			closing = new ArrayList<>(this.trees.values());
			this.trees.clear();
		}
		closing.forEach((tree) -> tree.release(null, this.clock.getAsLong()));
	}

	private Tree tree(SupervisedChild child) {
		synchronized (this.trees) {
			return this.trees.computeIfAbsent(child, (key) -> new Tree());
		}
	}

	/** Bytes as a person reads them: {@code 612.5MB}. */
	static String size(long bytes) {
		String[] units = { "B", "KB", "MB", "GB", "TB" };
		double value = bytes;
		int unit = 0;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		return (value == Math.rint(value)) ? (long) value + units[unit]
				: String.format(Locale.ROOT, "%.1f%s", value, units[unit]);
	}

	/**
	 * A child with its process, as seen under the lock.
	 *
	 * @param command the command's pid, or -1 while its shepherd has not been seen to
	 * fork it
	 */
	record SampledTree(SupervisedChild child, ChildProcess process, long command) {
	}

	/**
	 * One child's figures: its last sample, the CPU time of its earlier processes, and
	 * the memory check's count; and the sampler that keeps its processes' files open.
	 */
	private static final class Tree {

		private final TreeSampler sampler = new TreeSampler();

		private @Nullable ChildProcess process;

		private TreeSampler.@Nullable TreeUsage last;

		private long sampledNanos;

		private long earlierCpuNanos;

		private long lastCpuNanos;

		private long nextMemoryCheck;

		private int samplesAbove;

		private boolean nearMemoryLimit;

		private long memoryRestarts;

		/**
		 * Whether its sampler keeps files open. Why volatile: the sweep reads it without
		 * the tree's lock, for every tree.
		 */
		private volatile boolean keepsFiles;

		synchronized ChildUsage usage(@Nullable SampledTree seen, long now, long cacheNanos) {
			TreeSampler.TreeUsage usage = (seen != null) ? sample(seen, now, cacheNanos) : null;
			long cpu = this.earlierCpuNanos + this.lastCpuNanos;
			if (usage == null) {
				return new ChildUsage(0, Duration.ofNanos(cpu), 0, 0, null, this.memoryRestarts);
			}
			return new ChildUsage(usage.residentBytes(), Duration.ofNanos(cpu), usage.processes(), usage.zombies(),
					(usage.descriptors() >= 0) ? usage.descriptors() : null, this.memoryRestarts);
		}

		/**
		 * A sample of {@code seen}'s tree, fresh within {@code cacheNanos}; {@code null}
		 * when it is gone.
		 */
		private TreeSampler.@Nullable TreeUsage sample(SampledTree seen, long now, long cacheNanos) {
			if (this.process != seen.process()) {
				// Why carried over: the CPU time is the child's, across its processes, so
				// that it never decreases.
				this.earlierCpuNanos += this.lastCpuNanos;
				this.lastCpuNanos = 0;
				this.process = seen.process();
				this.last = null;
				this.samplesAbove = 0;
				// Why: the files kept are the earlier process's tree's; none of them
				// belongs to this one.
				this.sampler.close();
			}
			if (this.last == null || now - this.sampledNanos >= cacheNanos) {
				// Why learnt here too: the tick learns a command's pid only after the
				// shepherd has forked it.
				long command = (seen.command() > 0 || !seen.process().shepherd()) ? seen.command()
						: Shepherd.commandPid(seen.process().pid()).orElse(-1);
				Optional<TreeSampler.TreeUsage> sampled = this.sampler.sample(seen.process().pid(),
						seen.process().shepherd(), command);
				this.keepsFiles = this.sampler.keepsFiles();
				this.last = sampled.orElse(null);
				this.sampledNanos = now;
				sampled.ifPresent((usage) -> this.lastCpuNanos = Math.max(this.lastCpuNanos, usage.cpuNanos()));
			}
			return this.last;
		}

		/**
		 * Samples when due; the reason to restart once the tree was above {@code max}
		 * often enough, else null.
		 */
		synchronized @Nullable String checkMemory(SampledTree seen, long max, int samples, long now) {
			if (this.process == seen.process() && now - this.nextMemoryCheck < 0) {
				return null;
			}
			TreeSampler.TreeUsage usage = sample(seen, now, this.nearMemoryLimit ? 0 : MEMORY_PERIOD.toNanos() / 2);
			// Why every tick near the limit: a tree that grows fast went from 80 % of its
			// limit to four times it between two samples a second apart.
			this.nearMemoryLimit = usage != null && usage.residentBytes() > max / 5 * 4;
			this.nextMemoryCheck = now + (this.nearMemoryLimit ? 0 : MEMORY_PERIOD.toNanos());
			if (usage == null || usage.residentBytes() <= max) {
				this.samplesAbove = 0;
				return null;
			}
			if (++this.samplesAbove < samples) {
				return null;
			}
			this.samplesAbove = 0;
			return "max-memory exceeded: resident memory " + size(usage.residentBytes()) + " above " + size(max) + " ("
					+ samples + ((samples == 1) ? " sample)" : " samples in a row)");
		}

		synchronized void restartedForMemory() {
			this.memoryRestarts++;
		}

		/**
		 * Closes the files it keeps unless they are still wanted: its child has
		 * {@code current} (null when it has no process or is gone), the very process they
		 * were opened for, and sampled it within {@link #IDLE}.
		 */
		synchronized void release(@Nullable ChildProcess current, long now) {
			if (current == null || current != this.process || now - this.sampledNanos >= IDLE.toNanos()) {
				this.sampler.close();
				this.keepsFiles = false;
			}
		}

	}

}
