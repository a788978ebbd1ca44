package dev.tether.supervisor.springai;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.core.io.Resource;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.boot.InvalidSupervisorConfigurationException;

/**
 * A servers file in the format of Claude Desktop and of Spring AI's
 * {@code servers-configuration}: {@code {"mcpServers": {"<name>": {"command": "...",
 * "args": [...], "env": {...}}}}}, read with Jackson. Every problem fails startup naming
 * {@code supervisor.mcp.servers-configuration}, the location, and the entry or the
 * position in the text. Why apart from {@link McpServersFile}: Jackson is loaded only
 * when a file is configured.
 */
final class McpServersJson {

	private static final Set<String> FIELDS = Set.of("command", "args", "env", "type", "url");

	private final String location;

	private final JsonNode servers;

	private McpServersJson(String location, JsonNode servers) {
		this.location = location;
		this.servers = servers;
	}

	static McpServersJson read(Resource file, String location) {
		JsonNode servers;
		try (InputStream in = file.getInputStream()) {
			servers = JsonMapper.builder().build().readTree(in).path("mcpServers");
		}
		catch (JacksonException ex) {
			TokenStreamLocation at = ex.getLocation();
			String where = (at != null) ? " at line " + at.getLineNr() + ", column " + at.getColumnNr() : "";
			throw invalid(location, "is not valid JSON" + where + ": " + ex.getOriginalMessage(), ex);
		}
		catch (IOException ex) {
			throw invalid(location, "cannot be read: " + ex.getMessage(), ex);
		}
		if (!servers.isObject()) {
			throw invalid(location, "has no \"mcpServers\" object", null);
		}
		return new McpServersJson(location, servers);
	}

	/** The name of each server, in the order of the file. */
	List<String> names() {
		return List.copyOf(this.servers.propertyNames());
	}

	/**
	 * The settings of every server's child, each with its entry as origin.
	 * @param child the name of a child's settings, {@code supervisor.children.<name>}
	 */
	Map<String, Object> properties(Function<String, ConfigurationPropertyName> child) {
		Map<String, Object> properties = new LinkedHashMap<>();
		for (String name : names()) {
			Origin origin = new Entry(this.location, name);
			String prefix = child.apply(name) + ".";
			JsonNode server = this.servers.get(name);
			check(server, origin);
			List<String> command = new ArrayList<>();
			command.add(text(server.path("command"), origin, "command"));
			server.path("args").forEach((arg) -> command.add(text(arg, origin, "each of args")));
			for (int i = 0; i < command.size(); i++) {
				properties.put(prefix + "command[" + i + "]", OriginTrackedValue.of(command.get(i), origin));
			}
			server.path("env").properties().forEach((variable) -> {
				String value = text(variable.getValue(), origin, "env." + variable.getKey());
				properties.put(prefix + "environment[" + variable.getKey() + "]", OriginTrackedValue.of(value, origin));
			});
			properties.put(prefix + "mcp.transport", OriginTrackedValue.of(McpTransportType.STDIO.id(), origin));
		}
		return properties;
	}

	/** A stdio server with only what Tether reads. */
	private static void check(JsonNode server, Origin origin) {
		if (!server.isObject()) {
			throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY, origin + " is not an object",
					null);
		}
		for (String field : server.propertyNames()) {
			if (!FIELDS.contains(field)) {
				throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY,
						origin + " has \"" + field + "\", which Tether does not read (it reads command, args, env)",
						null);
			}
		}
		if (server.has("args") && !server.get("args").isArray()) {
			throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY,
					origin + ": args must be an array of strings", null);
		}
		if (server.has("env") && !server.get("env").isObject()) {
			throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY,
					origin + ": env must be an object of strings", null);
		}
		String type = server.path("type").asString("stdio");
		if (server.has("url") || !type.equals("stdio")) {
			String remote = server.has("url") ? "has a url" : "has type \"" + type + "\"";
			throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY,
					origin + " " + remote + ": only stdio servers (command, args, env) are supervised; connect to "
							+ "it with spring.ai.mcp.client.streamable-http or .sse instead",
					null);
		}
	}

	private static String text(JsonNode value, Origin origin, String what) {
		if (!value.isValueNode() || value.isNull()) {
			throw new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY,
					origin + ": " + what + " must be a string", null);
		}
		return value.asString();
	}

	private static InvalidSupervisorConfigurationException invalid(String location, String problem,
			@Nullable Throwable cause) {
		return new InvalidSupervisorConfigurationException(McpServersFile.PROPERTY, "(" + location + ") " + problem,
				cause);
	}

	/** Where a child's setting came from: its entry in the servers file. */
	private record Entry(String location, String name) implements Origin {

		@Override
		public String toString() {
			return "\"mcpServers\": \"" + this.name + "\" in " + this.location;
		}

	}

}
