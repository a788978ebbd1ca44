package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.boot.ChildLimit.Measured;
import dev.tether.supervisor.boot.ChildLimit.Unit;

/**
 * The limits a child's command runs under: {@code supervisor.children.<name>.limits.*}
 * and {@code supervisor.defaults.limits.*}. Each is one value (soft and hard limit alike)
 * or 'soft:hard', as systemd's 'LimitNOFILE=' takes it, with 'infinity' for none. Every
 * setting is {@code null} unless set; unset, the command keeps the application's own
 * limit.
 * <p>
 * Each field is one limit, and the only place it is written: {@code ChildLimit} reads the
 * settings from these fields, each with its unit, and sets the
 * {@code ResourceLimits.Builder} method of the same name.
 */
public class ChildLimitsProperties {

	/**
	 * Descriptors the command may have open (RLIMIT_NOFILE), e.g. '1024' or '1024:4096'.
	 */
	@Measured(Unit.COUNT)
	private @Nullable String openFiles;

	/**
	 * Processes the command's user may have (RLIMIT_NPROC, counted over the whole user,
	 * never enforced for root).
	 */
	@Measured(Unit.COUNT)
	private @Nullable String processes;

	/**
	 * Size of a core file the command may write (RLIMIT_CORE), e.g. '0' for none or
	 * '100MB'.
	 */
	@Measured(Unit.SIZE)
	private @Nullable String coreSize;

	/**
	 * Size any file the command writes may grow to (RLIMIT_FSIZE), e.g. '1GB'.
	 */
	@Measured(Unit.SIZE)
	private @Nullable String fileSize;

	/**
	 * CPU time each process of the command may use (RLIMIT_CPU): SIGXCPU at the soft
	 * limit, SIGKILL at the hard one; a duration, e.g. '1h', or seconds.
	 */
	@Measured(Unit.SECONDS)
	private @Nullable String cpuTime;

	/**
	 * Virtual memory each process of the command may map (RLIMIT_AS), e.g. '4GB'.
	 */
	@Measured(Unit.SIZE)
	private @Nullable String addressSpace;

	public @Nullable String getOpenFiles() {
		return this.openFiles;
	}

	public void setOpenFiles(@Nullable String openFiles) {
		this.openFiles = openFiles;
	}

	public @Nullable String getProcesses() {
		return this.processes;
	}

	public void setProcesses(@Nullable String processes) {
		this.processes = processes;
	}

	public @Nullable String getCoreSize() {
		return this.coreSize;
	}

	public void setCoreSize(@Nullable String coreSize) {
		this.coreSize = coreSize;
	}

	public @Nullable String getFileSize() {
		return this.fileSize;
	}

	public void setFileSize(@Nullable String fileSize) {
		this.fileSize = fileSize;
	}

	public @Nullable String getCpuTime() {
		return this.cpuTime;
	}

	public void setCpuTime(@Nullable String cpuTime) {
		this.cpuTime = cpuTime;
	}

	public @Nullable String getAddressSpace() {
		return this.addressSpace;
	}

	public void setAddressSpace(@Nullable String addressSpace) {
		this.addressSpace = addressSpace;
	}

}
