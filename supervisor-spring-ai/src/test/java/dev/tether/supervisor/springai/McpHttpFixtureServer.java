package dev.tether.supervisor.springai;

import java.nio.file.Files;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServlet;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/**
 * An MCP server over HTTP, with the tools of {@link McpFixtureServer}, in an embedded
 * Tomcat: streamable HTTP at {@code /mcp}, or with {@code sse} its SSE transport at
 * {@code /sse}. Arguments: {@code <port> [sse]}.
 */
public final class McpHttpFixtureServer {

	private McpHttpFixtureServer() {
	}

	public static void main(String[] args) throws Exception {
		HttpServlet transport;
		if (args.length > 1 && args[1].equals("sse")) {
			HttpServletSseServerTransportProvider sse = HttpServletSseServerTransportProvider.builder()
				.jsonMapper(McpJsonDefaults.getMapper())
				.sseEndpoint("/sse")
				.messageEndpoint("/message")
				.build();
			McpServer.sync(sse)
				.serverInfo("sse-fixture", "1.0")
				.tools(McpFixtureServer.echo(), McpFixtureServer.pid())
				.build();
			transport = sse;
		}
		else {
			HttpServletStreamableServerTransportProvider streamable = HttpServletStreamableServerTransportProvider
				.builder()
				.jsonMapper(McpJsonDefaults.getMapper())
				.mcpEndpoint("/mcp")
				.build();
			McpServer.sync(streamable)
				.serverInfo("http-fixture", "1.0")
				.tools(McpFixtureServer.echo(), McpFixtureServer.pid())
				.build();
			transport = streamable;
		}
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(Files.createTempDirectory("mcp-http-fixture").toString());
		tomcat.setPort(Integer.parseInt(args[0]));
		tomcat.getConnector().setProperty("address", "127.0.0.1");
		Context context = tomcat.addContext("", null);
		Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
		context.addServletMappingDecoded("/*", "mcp");
		tomcat.start();
		tomcat.getServer().await();
	}

}
