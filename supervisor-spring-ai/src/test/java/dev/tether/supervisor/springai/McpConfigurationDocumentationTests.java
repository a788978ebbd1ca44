package dev.tether.supervisor.springai;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP rows of {@code docs/configuration.md} against this module's generated metadata
 * (a child's settings and {@code supervisor.mcp.*}): every property is documented, with
 * its default.
 */
class McpConfigurationDocumentationTests {

	private static final Pattern ROW = Pattern.compile("^\\| `(supervisor\\.([^`]+\\.)?mcp\\.[^`]+)` \\| ([^|]+) \\|");

	private static final String CHILD = "supervisor.children.<name>.";

	private static final String DEFAULTS = "supervisor.defaults.";

	private static final String SUPERVISOR_MCP = "supervisor.mcp.";

	@Test
	void everyMcpPropertyAndDefaultIsDocumented() throws Exception {
		Map<String, String> documented = new LinkedHashMap<>();
		for (String line : Files.readAllLines(Path.of("..", "docs", "configuration.md"))) {
			Matcher row = ROW.matcher(line);
			if (row.find()) {
				documented.put(row.group(1).replace(CHILD, DEFAULTS), row.group(3).trim());
			}
		}
		Map<String, String> metadata = new LinkedHashMap<>();
		JsonNode root = JsonMapper.builder()
			.build()
			.readTree(Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json").toFile());
		for (JsonNode property : root.get("properties")) {
			String name = property.get("name").asString();
			if (name.startsWith(DEFAULTS) || name.startsWith(SUPERVISOR_MCP)) {
				JsonNode value = property.get("defaultValue");
				metadata.put(name, (value != null && !value.isNull()) ? "`" + value.asString() + "`" : "(none)");
			}
		}
		assertThat(documented).isEqualTo(metadata);
	}

}
