package dev.tether.benchmarks;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The MCP server of the MCP rows, on the MCP Java SDK over stdio, with one tool,
 * {@code echo}. Both transports measured run this same server.
 */
public final class McpBenchServer {

	private McpBenchServer() {
	}

	public static void main(String[] args) throws Exception {
		// Why: stdout is the MCP channel; anything a library prints there goes to stderr
		// instead.
		PrintStream channel = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
		System.setOut(System.err);
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				new FileInputStream(FileDescriptor.in), channel);
		SyncToolSpecification echo = SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("echo")
				.description("Returns its text")
				.inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"))))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent(String.valueOf(request.arguments().get("text")))
				.build())
			.build();
		McpServer.sync(transport).serverInfo("bench", "1.0").tools(echo).build();
		new CountDownLatch(1).await();
	}

}
