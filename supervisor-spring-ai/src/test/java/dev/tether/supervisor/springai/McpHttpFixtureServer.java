package dev.tether.supervisor.springai;

import java.nio.file.Files;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/**
 * An MCP server over streamable HTTP at {@code /mcp}, with the tools of {@link McpFixtureServer}, in an embedded
 * Tomcat. Arguments: {@code <port>}.
 */
public final class McpHttpFixtureServer {

	private McpHttpFixtureServer() {
	}

	public static void main(String[] args) throws Exception {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.jsonMapper(McpJsonDefaults.getMapper())
			.mcpEndpoint("/mcp")
			.build();
		McpServer.sync(transport)
			.serverInfo("http-fixture", "1.0")
			.tools(McpFixtureServer.echo(), McpFixtureServer.pid())
			.build();
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
