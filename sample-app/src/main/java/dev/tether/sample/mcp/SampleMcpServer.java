package dev.tether.sample.mcp;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import ch.qos.logback.classic.Level;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample's MCP servers, on the MCP Java SDK, without Spring: {@code stdio} serves the
 * tool {@code now} over its stdin and stdout; {@code http <port>} serves the tool
 * {@code echo} over streamable HTTP at {@code http://127.0.0.1:<port>/mcp}. The
 * application runs them as its own children, from its own classpath.
 */
public final class SampleMcpServer {

	/** The first argument of the application that makes it this server. */
	public static final String ARGUMENT = "mcp-server";

	private SampleMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		// Why: stdout is the stdio server's MCP channel; anything a library prints there
		// goes to stderr instead.
		PrintStream channel = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
		System.setOut(System.err);
		// Why: without Spring Boot's logging set-up, Logback logs everything at DEBUG
		// (each MCP message).
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.INFO);
		String mode = (args.length > 0) ? args[0] : "";
		switch (mode) {
			case "stdio" -> stdio(channel);
			case "http" -> {
				if (args.length < 2) {
					throw new IllegalArgumentException("mcp-server http needs a port: mcp-server http <port>");
				}
				http(Integer.parseInt(args[1]));
			}
			default -> throw new IllegalArgumentException(
					"mcp-server needs a transport, 'stdio' or 'http <port>', not '" + mode + "'");
		}
	}

	private static void stdio(PrintStream channel) throws InterruptedException {
		StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
				new FileInputStream(FileDescriptor.in), channel);
		// Why immediate execution: the SDK's stdio server transport takes one message
		// at a time into its outbound queue; handlers run on other threads (its
		// default) may hand it two at once, and a reply is then held back or lost.
		McpServer.sync(transport).immediateExecution(true).serverInfo("sample-clock", "1.0").tools(now()).build();
		System.err.println("clock: serving MCP over stdio as pid " + ProcessHandle.current().pid());
		// Why: the SDK reads stdin on a daemon thread; the server lives until Tether
		// stops it.
		new CountDownLatch(1).await();
	}

	private static void http(int port) throws Exception {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.jsonMapper(McpJsonDefaults.getMapper())
			.mcpEndpoint("/mcp")
			.build();
		McpServer.sync(transport).serverInfo("sample-tools", "1.0").tools(echo()).build();
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(Files.createTempDirectory("sample-mcp-server").toString());
		tomcat.setPort(port);
		tomcat.getConnector().setProperty("address", "127.0.0.1");
		Context context = tomcat.addContext("", null);
		Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
		context.addServletMappingDecoded("/*", "mcp");
		tomcat.start();
		System.err
			.println("tools: serving MCP on http://127.0.0.1:" + port + "/mcp as pid " + ProcessHandle.current().pid());
		tomcat.getServer().await();
	}

	private static SyncToolSpecification now() {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("now")
				.description("Returns the current time (UTC) and the server's pid")
				.inputSchema(Map.of("type", "object", "properties", Map.of()))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent(Instant.now() + " (pid " + ProcessHandle.current().pid() + ")")
				.build())
			.build();
	}

	private static SyncToolSpecification echo() {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("echo")
				.description("Returns its text")
				.inputSchema(Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")),
						"required", List.of("text")))
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent("echo: " + request.arguments().get("text"))
				.build())
			.build();
	}

}
