package dev.tether.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.RequestLoop;

/**
 * The restart rows on the application path: a web application with the starter and the
 * actuator, run in a JVM of its own, supervising {@code line-server} as its properties
 * configure it (socket activation, and for rolling restarts {@code restart-mode} and
 * {@code readiness.log-line}), restarted as an operator does, by
 * {@code POST /actuator/children/server} with {@code {"action":"restart"}}, while the
 * client of {@link RestartRows} sends its requests. Prints {@code REFUSED},
 * {@code FAILED}, {@code ANSWERED}, and {@code P50} and {@code P99} in milliseconds. Five
 * restarts come first, not counted. Arguments:
 * {@code <line-server> <stop-first|rolling> <restarts> <work-directory>}; with no
 * restart, the client runs for the baseline's time.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class RestartBootApp {

	private static final int WARM_UP = 5;

	public static void main(String[] args) throws Exception {
		Path server = Path.of(args[0]);
		boolean rolling = args[1].equals("rolling");
		int restarts = Integer.parseInt(args[2]);
		Path directory = Files.createTempDirectory(Path.of(args[3]), "restart-");
		int port = ProbeRows.freePorts(1).get(0);
		SpringApplication application = new SpringApplication(RestartBootApp.class);
		application.setDefaultProperties(properties(server, rolling, port, directory));
		try (ConfigurableApplicationContext context = application.run()) {
			Supervisor supervisor = context.getBean(Supervisor.class);
			URI child = URI.create("http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port")
					+ "/actuator/children/" + RestartRows.NAME);
			HttpClient http = HttpClient.newHttpClient();
			RestartRows.awaitAnswer(port);
			Random phase = new Random(restarts);
			// Why restarts first, not counted, in every mode: the JVM is fresh, and the
			// first restarts through the endpoint compile its path while the client's
			// requests wait for a core; an application restarts its children long after
			// its start.
			try (RequestLoop warmUp = RequestLoop.start(port, RestartRows.INTERVAL, RequestLoop.NOTHING)) {
				for (int i = 0; i < WARM_UP; i++) {
					RestartRows.restart(supervisor, warmUp, phase, () -> restart(http, child));
				}
			}
			RequestLoop client = RequestLoop.start(port, RestartRows.INTERVAL, RequestLoop.NOTHING);
			try {
				if (restarts == 0) {
					Pause.of(RestartRows.BASELINE);
				}
				for (int i = 0; i < restarts; i++) {
					RestartRows.restart(supervisor, client, phase, () -> restart(http, child));
				}
			}
			finally {
				client.close();
			}
			System.out.println("REFUSED " + client.refused());
			System.out.println("FAILED " + client.failures().size());
			System.out.println("ANSWERED " + client.latencies().size());
			System.out.println("P50 " + ProbeRows.percentile(client.latencies(), 50));
			System.out.println("P99 " + ProbeRows.percentile(client.latencies(), 99));
			client.failures().forEach((failure) -> System.out.println("failure: " + failure));
		}
	}

	private static Map<String, Object> properties(Path server, boolean rolling, int port, Path directory) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("server.port", "0");
		properties.put("server.address", "127.0.0.1");
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.root", "warn");
		properties.put("management.endpoints.web.exposure.include", "children");
		properties.put("management.endpoint.children.access", "unrestricted");
		properties.put("supervisor.state-directory", directory.resolve("state").toString());
		properties.put("supervisor.installation-id", "bench-restart-" + ProcessHandle.current().pid());
		String child = "supervisor.children." + RestartRows.NAME + ".";
		properties.put(child + "command", server + "," + RestartRows.START.toMillis());
		properties.put(child + "port", Integer.toString(port));
		properties.put(child + "socket-activation.enabled", "true");
		// Why the file only for rolling restarts: its readiness is a line of the output.
		properties.put(child + "log.file-enabled", Boolean.toString(rolling));
		if (rolling) {
			properties.put(child + "restart-mode", "rolling");
			properties.put(child + "readiness.log-line", "^serving$");
		}
		return properties;
	}

	private static void restart(HttpClient http, URI child) {
		HttpRequest request = HttpRequest.newBuilder(child)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"restart\"}"))
			.build();
		try {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException("restart answered " + response.statusCode() + ": " + response.body());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (IOException ex) {
			throw new IllegalStateException("restart failed", ex);
		}
	}

}
