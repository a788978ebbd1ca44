package dev.tether.supervisor;

import org.jspecify.annotations.Nullable;

/**
 * What a child may use: the limits its command runs under, the resident memory its whole
 * tree may keep, and how readily the kernel's OOM killer takes it. Every limit is applied
 * by the launcher to the command just before it executes (its shepherd keeps its own, so
 * it can always end the tree); {@code null} leaves the command the JVM's. Checked by
 * {@link ChildSpec} against what this process may set (see
 * {@code docs/configuration.md}).
 *
 * @param openFiles {@code RLIMIT_NOFILE}: descriptors the command may have open
 * @param processes {@code RLIMIT_NPROC}: processes its user may have (counted over the
 * user, not the tree)
 * @param coreSize {@code RLIMIT_CORE}: bytes of a core file it may write
 * @param fileSize {@code RLIMIT_FSIZE}: bytes any file it writes may grow to
 * @param cpuTime {@code RLIMIT_CPU}: CPU seconds each of its processes may use
 * @param addressSpace {@code RLIMIT_AS}: bytes of virtual memory each of its processes
 * may map
 * @param maxMemory resident bytes the child's whole tree may keep before it is restarted,
 * or {@code null}
 * @param maxMemorySamples how many samples in a row must see the tree above
 * {@code maxMemory} before the restart
 * @param oomScoreAdjust the command's {@code /proc/<pid>/oom_score_adj} (-1000 to 1000),
 * or {@code null} to inherit the JVM's
 */
public record ResourceLimits(@Nullable ResourceLimit openFiles, @Nullable ResourceLimit processes,
		@Nullable ResourceLimit coreSize, @Nullable ResourceLimit fileSize, @Nullable ResourceLimit cpuTime,
		@Nullable ResourceLimit addressSpace, @Nullable Long maxMemory, int maxMemorySamples,
		@Nullable Integer oomScoreAdjust) {

	/** No limit, no memory ceiling, the JVM's OOM score. */
	public static final ResourceLimits NONE = builder().build();

	/** The limit of one resource, or {@code null} when the command keeps the JVM's. */
	public @Nullable ResourceLimit limit(LimitedResource resource) {
		return switch (resource) {
			case OPEN_FILES -> this.openFiles;
			case PROCESSES -> this.processes;
			case CORE_SIZE -> this.coreSize;
			case FILE_SIZE -> this.fileSize;
			case CPU_TIME -> this.cpuTime;
			case ADDRESS_SPACE -> this.addressSpace;
		};
	}

	/** Whether anything is set that the launcher applies to the command. */
	public boolean appliedAtLaunch() {
		return this.openFiles != null || this.processes != null || this.coreSize != null || this.fileSize != null
				|| this.cpuTime != null || this.addressSpace != null || this.oomScoreAdjust != null;
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Builds {@link ResourceLimits}; nothing is set at first, and two samples make the
	 * memory grace.
	 */
	public static final class Builder {

		private @Nullable ResourceLimit openFiles;

		private @Nullable ResourceLimit processes;

		private @Nullable ResourceLimit coreSize;

		private @Nullable ResourceLimit fileSize;

		private @Nullable ResourceLimit cpuTime;

		private @Nullable ResourceLimit addressSpace;

		private @Nullable Long maxMemory;

		private int maxMemorySamples = 2;

		private @Nullable Integer oomScoreAdjust;

		private Builder() {
		}

		/** Sets the limit of one resource ({@code null}: the JVM's). */
		public Builder limit(LimitedResource resource, @Nullable ResourceLimit limit) {
			switch (resource) {
				case OPEN_FILES -> this.openFiles = limit;
				case PROCESSES -> this.processes = limit;
				case CORE_SIZE -> this.coreSize = limit;
				case FILE_SIZE -> this.fileSize = limit;
				case CPU_TIME -> this.cpuTime = limit;
				case ADDRESS_SPACE -> this.addressSpace = limit;
			}
			return this;
		}

		public Builder openFiles(@Nullable ResourceLimit openFiles) {
			this.openFiles = openFiles;
			return this;
		}

		public Builder processes(@Nullable ResourceLimit processes) {
			this.processes = processes;
			return this;
		}

		public Builder coreSize(@Nullable ResourceLimit coreSize) {
			this.coreSize = coreSize;
			return this;
		}

		public Builder fileSize(@Nullable ResourceLimit fileSize) {
			this.fileSize = fileSize;
			return this;
		}

		public Builder cpuTime(@Nullable ResourceLimit cpuTime) {
			this.cpuTime = cpuTime;
			return this;
		}

		public Builder addressSpace(@Nullable ResourceLimit addressSpace) {
			this.addressSpace = addressSpace;
			return this;
		}

		public Builder maxMemory(@Nullable Long maxMemory) {
			this.maxMemory = maxMemory;
			return this;
		}

		public Builder maxMemorySamples(int maxMemorySamples) {
			this.maxMemorySamples = maxMemorySamples;
			return this;
		}

		public Builder oomScoreAdjust(@Nullable Integer oomScoreAdjust) {
			this.oomScoreAdjust = oomScoreAdjust;
			return this;
		}

		public ResourceLimits build() {
			return new ResourceLimits(this.openFiles, this.processes, this.coreSize, this.fileSize, this.cpuTime,
					this.addressSpace, this.maxMemory, this.maxMemorySamples, this.oomScoreAdjust);
		}

	}

}
