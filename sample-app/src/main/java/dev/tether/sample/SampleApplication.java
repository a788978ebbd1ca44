package dev.tether.sample;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.tether.sample.mcp.SampleMcpServer;

/**
 * A web application that supervises an agent and two MCP servers declared in
 * {@code application.yml}, and offers the servers' tools over HTTP ({@code /tools}).
 * Started with {@code mcp-server} as first argument, it is one of those servers instead
 * (see {@link SampleMcpServer}).
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals(SampleMcpServer.ARGUMENT)) {
			SampleMcpServer.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		SpringApplication.run(SampleApplication.class, args);
	}

}
