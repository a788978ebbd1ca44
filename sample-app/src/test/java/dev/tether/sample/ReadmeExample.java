package dev.tether.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import tools.jackson.databind.JsonNode;

/**
 * The README's example of {@code GET /actuator/children}, read so that a test can hold it
 * against a real answer: the example must show every field the endpoint gives, and no
 * field it does not.
 */
final class ReadmeExample {

	private static final String HEADING = "`GET /actuator/children`";

	private ReadmeExample() {
	}

	/** The JSON of the first code block after the line that names the endpoint. */
	static String childrenEndpoint(Path readme) throws IOException {
		String text = Files.readString(readme);
		int named = text.indexOf(HEADING);
		if (named < 0) {
			throw new AssertionError(readme + " has no line naming " + HEADING);
		}
		int start = text.indexOf("```json\n", named);
		int end = text.indexOf("\n```", start + 1);
		if (start < 0 || end < 0) {
			throw new AssertionError(readme + " has no ```json block after " + HEADING);
		}
		return text.substring(start + "```json\n".length(), end);
	}

	/**
	 * Every field's path: {@code children[tools].details.mcp.session}. Children are named
	 * by their name, so the example's children must be the sample's; a null field has no
	 * fields below it.
	 */
	static Set<String> fieldPaths(JsonNode root) {
		Set<String> paths = new TreeSet<>();
		collect(root, "", paths);
		return paths;
	}

	private static void collect(JsonNode node, String prefix, Set<String> paths) {
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
				paths.add(path);
				collect(field.getValue(), path, paths);
			}
		}
		else if (node.isArray()) {
			for (JsonNode element : node) {
				String key = element.has("name") ? element.get("name").asString() : "*";
				collect(element, prefix + "[" + key + "]", paths);
			}
		}
	}

}
