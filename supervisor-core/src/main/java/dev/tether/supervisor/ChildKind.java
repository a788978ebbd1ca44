package dev.tether.supervisor;

/**
 * What a child is; decides which environment variable carries its name.
 */
public enum ChildKind {

	/** An AI agent: its name is stamped as {@value ChildMarkers#AGENT_NAME_ENV}. */
	AGENT(ChildMarkers.AGENT_NAME_ENV),

	/** An MCP server: its name is stamped as {@value ChildMarkers#MCP_SERVICE_ID_ENV}. */
	MCP(ChildMarkers.MCP_SERVICE_ID_ENV);

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
