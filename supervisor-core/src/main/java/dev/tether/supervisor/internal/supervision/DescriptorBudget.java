package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.resources.TreeSampler;

/**
 * The descriptors a supervisor may still spend on children: the soft
 * {@code RLIMIT_NOFILE} (raised to the hard limit once per JVM), less what the process
 * has open, less a reserve left to the application. A start that would cut into the
 * reserve is refused.
 * <p>
 * Why count {@code /proc/self/fd} at most once a second, at a tick, and add
 * {@link #PER_CHILD} per admitted start between counts: where the kernel cannot say the
 * number (before Linux 6.2), a count lists every descriptor of the process (about two
 * milliseconds at 1,000 children), too much for each of a thousand starts in a row, and a
 * fifth of a tick's time if done at every tick; the estimate only errs high until the
 * next count (a stop or a removal frees its descriptors within a second). A count adds,
 * for every child with a process, what the resource sampler would keep of it and does not
 * keep yet, up to what the samplers may keep in all (a quarter of the soft limit): past
 * that, a child costs only its own descriptors. Guarded by its own monitor, taken under
 * the supervisor's lock and never the reverse.
 */
final class DescriptorBudget {

	/**
	 * What a running child holds. Why 3: measured, it holds 2.04 of them (its output pipe
	 * and its pidfd, over 50 {@code sleep} children); the third covers its log file while
	 * a line is written and a stderr captured apart.
	 */
	private static final int SPAWNED = 3;

	/**
	 * What the JVM holds per child: {@link #SPAWNED} while it runs, and
	 * {@link TreeSampler#KEPT_PER_CHILD} more while its tree is sampled (a metrics
	 * scrape, the endpoint, {@code max-memory}).
	 */
	static final int PER_CHILD = SPAWNED + TreeSampler.KEPT_PER_CHILD;

	private static final Logger logger = LoggerFactory.getLogger(DescriptorBudget.class);

	private static final Path OPEN_DESCRIPTORS = Path.of("/proc/self/fd");

	private static final long COUNT_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final long limit;

	private final long reserve;

	private final ChildTable children;

	private long used;

	/** The samplers' share of {@link #used}, at most {@link #samplerLimit}. */
	private long sampler;

	private final long samplerLimit;

	/** When the last count was made; the tick's alone. */
	private long countedAt;

	private long refusals;

	/**
	 * @param reserve descriptors to leave to the application, or {@code null} for the
	 * default: the larger of 1,024 and a tenth of the limit
	 */
	DescriptorBudget(@Nullable Long reserve, ChildTable children) {
		this.children = children;
		this.limit = Limit.SOFT;
		// Why after the limit: the samplers' share is a quarter of the soft limit, read
		// once, and must be read once it is raised.
		this.samplerLimit = TreeSampler.keptDescriptorsLimit();
		this.reserve = (reserve != null) ? reserve : defaultReserve(this.limit);
		this.used = openDescriptors();
		this.sampler = Math.min(this.samplerLimit, TreeSampler.keptDescriptors());
		this.countedAt = System.nanoTime();
	}

	static long defaultReserve(long limit) {
		return Math.max(1024, (limit > 0) ? limit / 10 : 0);
	}

	/**
	 * Counts the open descriptors again if the last count is a second old; at each tick,
	 * holding no lock. Why the sampler's share of every child with a process is counted,
	 * sampled or not: the next scrape samples them all at once, and must not open them in
	 * the reserve.
	 */
	void recount() {
		long now = System.nanoTime();
		if (now - this.countedAt < COUNT_PERIOD_NANOS) {
			return;
		}
		this.countedAt = now;
		long counted = openDescriptors();
		long sampled = TreeSampler.keptDescriptors();
		long withProcess;
		synchronized (this.children) {
			withProcess = this.children.all().stream().filter((child) -> child.process() != null).count();
		}
		long share = Math.min(this.samplerLimit, Math.max(sampled, withProcess * TreeSampler.KEPT_PER_CHILD));
		synchronized (this) {
			this.used = counted - sampled + share;
			this.sampler = share;
		}
	}

	/**
	 * Takes a child's share of the budget if it leaves the reserve whole.
	 * @return why the start is refused, or {@code null} when it may go ahead
	 */
	synchronized @Nullable String admit(ChildSpec spec) {
		if (this.limit < 0) {
			return null;
		}
		// Why two more with a notify socket: the socket is the JVM's, one per process,
		// and so is the pidfd of its last sender (KnownSenders). Why one more with socket
		// activation: the listening socket is the JVM's too (counted at each start, an
		// estimate that errs high, as the budget must).
		long sampled = samplerCost();
		long cost = SPAWNED + sampled + (spec.selfReport().socket() ? 2 : 0)
				+ (spec.socketActivation().enabled() ? 1 : 0);
		long left = this.limit - this.used - cost;
		if (left < this.reserve) {
			this.refusals++;
			return String.format(Locale.ROOT,
					"starting it would leave the application %,d descriptors, under the reserve of %,d "
							+ "(limit %,d, %,d in use, %d for this child); raise the limit or the reserve",
					Math.max(0, left), this.reserve, this.limit, this.used, cost);
		}
		this.used += cost;
		this.sampler += sampled;
		return null;
	}

	/** What the samplers would keep open for one more child, within their limit. */
	private long samplerCost() {
		return Math.min(TreeSampler.KEPT_PER_CHILD, Math.max(0, this.samplerLimit - this.sampler));
	}

	synchronized DescriptorUse use() {
		return new DescriptorUse(this.used, this.limit, this.reserve, PER_CHILD, TreeSampler.keptDescriptors(), room(),
				this.refusals);
	}

	/**
	 * How many more children fit now: each costs {@link #PER_CHILD} while the samplers
	 * are under their limit, and {@link #SPAWNED} past it.
	 */
	private long room() {
		if (this.limit < 0) {
			return Long.MAX_VALUE;
		}
		long free = this.limit - this.used - this.reserve;
		if (free <= 0) {
			return 0;
		}
		long sampled = Math.max(0, this.samplerLimit - this.sampler) / TreeSampler.KEPT_PER_CHILD;
		if (free / PER_CHILD <= sampled) {
			return free / PER_CHILD;
		}
		return sampled + (free - sampled * PER_CHILD) / SPAWNED;
	}

	/** How many descriptors this process has open. */
	static long openDescriptors() {
		// Why the directory's size first: since Linux 6.2 it is the number of open
		// descriptors, counted by the kernel from its table (microseconds), where the
		// listing made an entry per descriptor: 16 to 25 ms at 18,000, the longest part
		// of a tick at 6,000 children. Older kernels say 0, and the listing counts.
		try {
			long size = Files.readAttributes(OPEN_DESCRIPTORS, BasicFileAttributes.class).size();
			if (size > 0) {
				return size;
			}
		}
		catch (IOException ex) {
			// Why go on: the listing below may still work, and says 0 if not.
		}
		// Why File.list: one call that reads the names alone, without a Path per
		// descriptor.
		String[] descriptors = OPEN_DESCRIPTORS.toFile().list();
		// Why minus one: the listing holds a descriptor of its own while it counts.
		return (descriptors != null) ? descriptors.length - 1 : 0;
	}

	/**
	 * The soft limit, raised to the hard one once per JVM (as systemd services and the
	 * JDK's {@code -XX:+MaxFDLimit} do), both numbers logged once.
	 */
	private static final class Limit {

		static final long SOFT = raise();

		private static long raise() {
			Posix.DescriptorLimit limit = Posix.get().isAvailable() ? Posix.get().raiseDescriptorLimit() : null;
			if (limit == null) {
				logger.info("The descriptor limit is unknown on this platform: no start is refused for descriptors");
				return -1;
			}
			logger.info("Descriptor limit: soft {} (was {}), hard {}", unlimited(limit.soft()),
					unlimited(limit.softBefore()), unlimited(limit.hard()));
			return limit.soft();
		}

		private static String unlimited(long value) {
			return (value < 0) ? "unlimited" : Long.toString(value);
		}

	}

}
