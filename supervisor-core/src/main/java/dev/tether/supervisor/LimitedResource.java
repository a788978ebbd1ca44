package dev.tether.supervisor;

/**
 * The resources whose limits a child's command runs under ({@link ResourceLimits}), each
 * spelled once: its setting's name ({@code limits.<name>}) and its row in
 * {@code /proc/<pid>/limits}.
 */
public enum LimitedResource {

	/** {@code RLIMIT_NOFILE}: descriptors the command may have open. */
	OPEN_FILES("open-files", "Max open files"),

	/** {@code RLIMIT_NPROC}: processes its user may have (counted over the user). */
	PROCESSES("processes", "Max processes"),

	/** {@code RLIMIT_CORE}: bytes of a core file it may write. */
	CORE_SIZE("core-size", "Max core file size"),

	/** {@code RLIMIT_FSIZE}: bytes any file it writes may grow to. */
	FILE_SIZE("file-size", "Max file size"),

	/** {@code RLIMIT_CPU}: CPU seconds each of its processes may use. */
	CPU_TIME("cpu-time", "Max cpu time"),

	/** {@code RLIMIT_AS}: bytes of virtual memory each of its processes may map. */
	ADDRESS_SPACE("address-space", "Max address space");

	private final String settingName;

	private final String procLimitsRow;

	LimitedResource(String settingName, String procLimitsRow) {
		this.settingName = settingName;
		this.procLimitsRow = procLimitsRow;
	}

	/** The setting's name under {@code limits}, such as {@code open-files}. */
	public String settingName() {
		return this.settingName;
	}

	/** Its row in {@code /proc/<pid>/limits}, such as {@code Max open files}. */
	public String procLimitsRow() {
		return this.procLimitsRow;
	}

}
