package dev.tether.supervisor;

/**
 * What a child is; decides which environment variable carries its name.
 */
public enum ChildKind {

	/** An AI agent: its name is stamped as {@code TETHER_AGENT_NAME}. */
	AGENT("TETHER_AGENT_NAME"),

	/** An MCP server: its name is stamped as {@code TETHER_MCP_SERVICE_ID}. */
	MCP("TETHER_MCP_SERVICE_ID");

	private final String nameKey;

	ChildKind(String nameKey) {
		this.nameKey = nameKey;
	}

	/** The environment variable that carries the child's name for this kind. */
	public String nameKey() {
		return this.nameKey;
	}

	/** The lower-case form used in configuration, the registry and JSON. */
	public String id() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

	/**
	 * Parses {@code agent} or {@code mcp}, ignoring case.
	 * @throws IllegalArgumentException naming the value when it is neither
	 */
	public static ChildKind fromId(String id) {
		for (ChildKind kind : values()) {
			if (kind.id().equalsIgnoreCase(id)) {
				return kind;
			}
		}
		throw new IllegalArgumentException("unknown kind '" + id + "' (expected agent or mcp)");
	}

}
