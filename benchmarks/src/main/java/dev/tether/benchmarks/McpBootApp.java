package dev.tether.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;

/**
 * An application with the starter, {@code supervisor-spring-ai} and Spring AI's MCP
 * client, run in a JVM of its own, its MCP servers {@link McpBenchServer}s over stdio.
 * Prints its figures as {@code NAME value} lines, in milliseconds. Arguments:
 * {@code <mode> <work-directory>}, the mode one of:
 * <ul>
 * <li>{@code healthy}, {@code healthy+optional-broken}: five supervised servers, and with
 * the second one more, {@code mcp.required: false}, whose command is {@code /bin/false};
 * prints {@code READY}, the time {@code SpringApplication.run} took, {@code CONNECTIONS},
 * the part of it in which Tether started the servers ({@code tetherMcpConnections}), and
 * {@code CLIENTS}, the part in which Spring AI initialised its clients
 * ({@code mcpSyncClients}).
 * <li>{@code required-broken}: one supervised server whose command is {@code /bin/false}
 * ({@code mcp.required} by default); prints {@code FAILED}, the time until
 * {@code SpringApplication.run} threw (after the context closed), {@code FAILED_EVENT},
 * until the {@code ApplicationFailedEvent}, {@code CONNECTIONS} and {@code CLIENTS} as
 * above, {@code CLIENTS_END}, when Spring AI's clients failed to initialise (the end of
 * {@code mcpSyncClients}, before the context closes), and {@code REASON}, the first line
 * of the message that names the server.
 * <li>{@code none}: no MCP server, the application's own start; prints {@code READY} and
 * {@code CLIENTS_END}, when Spring AI's (empty) list of clients was made.
 * <li>{@code death}: one supervised server, {@code tethered}, and two that Spring AI's
 * own stdio connections run, {@code plain-killed} and {@code plain-closed}. Each killed
 * (SIGKILL, by its pid, which its {@code pid} tool gives) or made to close its stdout
 * while the client is idle, then called at once: {@code <SERVER>_KILLED_FAILED} and
 * {@code <SERVER>_CLOSED_FAILED}, the time from the kill or the close to the call's
 * failure; for {@code tethered} also {@code _RECOVERED}, to the first successful call
 * after the supervisor restarted it.
 * </ul>
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class McpBootApp {

	static final String REQUEST_TIMEOUT = "20s";

	private static final String INSTANTIATE = "spring.beans.instantiate";

	/** Spring AI's bean of its initialised MCP clients. */
	private static final String CLIENTS = "mcpSyncClients";

	private static final long AWAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

	public static void main(String[] args) throws Exception {
		String mode = args[0];
		Path directory = Files.createTempDirectory(Path.of(args[1]), "mcp-boot-");
		StringBuilder yaml = new StringBuilder("""
				spring.main.banner-mode: "off"
				logging.level.root: warn
				spring.ai.mcp.client.request-timeout: %s
				supervisor:
				  state-directory: %s
				  installation-id: bench-mcp-boot-%d
				  children:
				""".formatted(REQUEST_TIMEOUT, directory.resolve("state"), ProcessHandle.current().pid()));
		String server = McpRows.server().stream().map((part) -> "\"" + part + "\"").toList().toString();
		switch (mode) {
			case "healthy", "healthy+optional-broken" -> {
				for (int i = 0; i < 5; i++) {
					yaml.append(child("healthy-" + i, server, true));
				}
				if (mode.endsWith("optional-broken")) {
					yaml.append(child("broken", "[\"/bin/false\"]", false));
				}
			}
			case "required-broken" -> yaml.append(child("broken", "[\"/bin/false\"]", true));
			case "none" -> yaml.append("    {}\n");
			case "death" -> {
				yaml.append(child("tethered", server, true));
				yaml.append("spring.ai.mcp.client.stdio.connections:\n");
				for (String name : List.of("plain-killed", "plain-closed")) {
					yaml.append("  " + name + ":\n")
						.append("    command: " + McpRows.server().get(0) + "\n")
						.append("    args: " + server.replaceFirst("^\\[[^,]*, ", "[") + "\n");
				}
			}
			default -> throw new IllegalArgumentException("unknown mode " + mode);
		}
		SpringApplication application = new SpringApplication(McpBootApp.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String location = "--spring.config.location="
				+ Files.writeString(directory.resolve("application.yml"), yaml).toUri();
		BufferingApplicationStartup startup = new BufferingApplicationStartup(100_000);
		application.setApplicationStartup(startup);
		long[] failedEvent = new long[1];
		application
			.addListeners((ApplicationListener<ApplicationFailedEvent>) (event) -> failedEvent[0] = System.nanoTime());
		long started = System.nanoTime();
		if (mode.equals("required-broken")) {
			ConfigurableApplicationContext context;
			try {
				context = application.run(location);
			}
			catch (RuntimeException ex) {
				System.out.println("FAILED " + (System.nanoTime() - started) / 1_000_000);
				System.out.println("FAILED_EVENT " + (failedEvent[0] - started) / 1_000_000);
				steps(startup.getBufferedTimeline());
				System.out.println("REASON " + reason(ex));
				return;
			}
			context.close();
			throw new IllegalStateException("the application started with a required broken MCP server");
		}
		try (ConfigurableApplicationContext context = application.run(location)) {
			System.out.println("READY " + (System.nanoTime() - started) / 1_000_000);
			steps(startup.getBufferedTimeline());
			if (mode.equals("death")) {
				death(context, directory);
			}
			else {
				Supervisor supervisor = context.getBean(Supervisor.class);
				supervisor.snapshot("broken")
					.ifPresent((child) -> System.err.println("  the optional broken server is " + child.state()));
			}
			System.out.flush();
		}
	}

	/**
	 * The time of the two steps of the start that MCP servers are in: Tether starting
	 * them, and Spring AI initialising its clients (the required ones); and
	 * {@code CLIENTS_END}, when the second ended (initialised or failed), from the start.
	 */
	private static void steps(StartupTimeline timeline) {
		List<TimelineEvent> events = timeline.getEvents();
		System.out.println("CONNECTIONS " + BootStartApp.millis(events, INSTANTIATE, "tetherMcpConnections"));
		System.out.println("CLIENTS " + BootStartApp.millis(events, INSTANTIATE, CLIENTS));
		events.stream()
			.filter((event) -> event.getStartupStep().getName().equals(INSTANTIATE)
					&& BootStartApp.hasTag(event.getStartupStep(), CLIENTS))
			.forEach((event) -> System.out
				.println("CLIENTS_END " + Duration.between(timeline.getStartTime(), event.getEndTime()).toMillis()));
	}

	/** The first line of the message that names the broken server, else of the first. */
	private static String reason(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && !Objects.toString(cause.getMessage(), "").contains("'broken'")) {
			cause = cause.getCause();
		}
		return Objects.toString(cause.getMessage(), "").lines().findFirst().orElse("");
	}

	private static String child(String name, String command, boolean required) {
		return "    " + name + ":\n" + "      command: " + command + "\n" + "      mcp: { transport: stdio, required: "
				+ required + " }\n";
	}

	private static void death(ConfigurableApplicationContext context, Path directory) throws Exception {
		Supervisor supervisor = context.getBean(Supervisor.class);
		McpSyncClient tethered = client(context, "tethered");
		McpSyncClient plainKilled = client(context, "plain-killed");
		McpSyncClient plainClosed = client(context, "plain-closed");
		for (McpSyncClient client : List.of(tethered, plainKilled, plainClosed)) {
			echo(client);
		}
		// The SDK's servers are its own children; their pids come from the servers.
		killed("PLAIN", plainKilled, Long.parseLong(text(plainKilled, "pid", Map.of())));
		ChildSnapshot child = supervisor.snapshot("tethered").orElseThrow();
		long killedAt = killed("TETHERED", tethered, Objects.requireNonNull(child.pid()));
		recovered("TETHERED_KILLED", tethered, supervisor, child, killedAt);
		closed("PLAIN", plainClosed, directory.resolve("plain-closed"));
		child = supervisor.snapshot("tethered").orElseThrow();
		long closedAt = closed("TETHERED", tethered, directory.resolve("tethered-closed"));
		recovered("TETHERED_CLOSED", tethered, supervisor, child, closedAt);
	}

	/** Kills the server, calls it at once, and prints when the call failed. */
	private static long killed(String server, McpSyncClient client, long pid) {
		ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
		long killed = System.nanoTime();
		// Why a handle: it holds the process's start time, so a reused pid is never
		// signalled; destroyForcibly is SIGKILL.
		process.destroyForcibly();
		failed(server + "_KILLED_FAILED", client, killed);
		return killed;
	}

	/**
	 * Asks the server to close its stdout, waits for the time of the close (the server
	 * writes it), calls it at once and prints when the call failed.
	 */
	private static long closed(String server, McpSyncClient client, Path file) throws Exception {
		text(client, "close-stdout", Map.of("file", file.toString()));
		long deadline = System.nanoTime() + AWAIT_NANOS;
		while (!Files.exists(file) && System.nanoTime() < deadline) {
			// Why a 1 ms poll: the close is the server's; the figure counts from its
			// time, so the poll adds at most this to it.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		long closed = Long.parseLong(Files.readString(file).trim());
		failed(server + "_CLOSED_FAILED", client, closed);
		return closed;
	}

	private static void failed(String figure, McpSyncClient client, long since) {
		try {
			echo(client);
			System.out.println(figure + "_ANSWERED " + (System.nanoTime() - since) / 1_000_000);
		}
		catch (RuntimeException ex) {
			System.out.println(figure + " " + (System.nanoTime() - since) / 1_000_000);
			System.err.println("  " + figure + ": " + ex.getMessage().lines().findFirst().orElse(""));
		}
	}

	/**
	 * Calls the server until a call succeeds; prints the time since {@code since}, and
	 * when the supervisor first showed a process other than {@code before}'s
	 * {@code RUNNING}.
	 */
	private static void recovered(String figure, McpSyncClient client, Supervisor supervisor, ChildSnapshot before,
			long since) {
		long deadline = System.nanoTime() + AWAIT_NANOS;
		boolean restarted = false;
		while (true) {
			if (!restarted) {
				ChildSnapshot now = supervisor.snapshot(before.name()).orElseThrow();
				restarted = now.state() == ChildState.RUNNING && !Objects.equals(now.startedAt(), before.startedAt());
				if (restarted) {
					System.out.println(figure + "_RESTARTED " + (System.nanoTime() - since) / 1_000_000);
				}
			}
			try {
				echo(client);
				long recovered = (System.nanoTime() - since) / 1_000_000;
				if (!restarted) {
					// Why: it turned RUNNING between the look and the call.
					System.out.println(figure + "_RESTARTED " + recovered);
				}
				System.out.println(figure + "_RECOVERED " + recovered);
				return;
			}
			catch (RuntimeException ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				// Why a pause: a call to a server that is down fails at once; 10 ms
				// between tries is within the figure's noise.
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}
	}

	private static McpSyncClient client(ConfigurableApplicationContext context, String name) {
		List<?> clients = context.getBean("mcpSyncClients", List.class);
		return clients.stream()
			.map(McpSyncClient.class::cast)
			.filter((client) -> name.equals(client.getClientInfo().title()))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no MCP client '" + name + "'"));
	}

	private static void echo(McpSyncClient client) {
		text(client, "echo", Map.of("text", "ping"));
	}

	private static String text(McpSyncClient client, String tool, Map<String, Object> arguments) {
		McpSchema.CallToolResult result = client
			.callTool(McpSchema.CallToolRequest.builder().name(tool).arguments(arguments).build());
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException("tool " + tool + " failed: " + result.content());
		}
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

}
