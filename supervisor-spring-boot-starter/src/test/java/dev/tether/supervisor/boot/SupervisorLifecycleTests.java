package dev.tether.supervisor.boot;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.event.ChildStoppedEvent;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SupervisorLifecycleTests {

	@TempDir
	Path temp;

	private String installationId() {
		return TestRun.installationId("starter");
	}

	@Test
	void anErrorInATickDoesNotEndTheTicking() {
		AtomicInteger ticks = new AtomicInteger();
		SupervisorTickObserver failsOnce = (took) -> {
			if (ticks.incrementAndGet() == 1) {
				throw new StackOverflowError("thrown by the first tick");
			}
		};
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SupervisorAutoConfiguration.class))
			.withPropertyValues("supervisor.state-directory=" + this.temp,
					"supervisor.installation-id=" + installationId(), "supervisor.tick-interval=20ms")
			.withBean(SupervisorTickObserver.class, () -> failsOnce)
			.run((context) -> await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() >= 3));
	}

	@Test
	void aRequestInFlightAtShutdownStillReachesItsChild() throws Exception {
		int childPort = Listen.unusedPort();
		List<String> properties = new ArrayList<>(List.of("server.port=0", "server.shutdown=graceful",
				"supervisor.state-directory=" + this.temp, "supervisor.installation-id=" + installationId(),
				"supervisor.children.listener.port=" + childPort, "supervisor.children.listener.stop-timeout=5s",
				"child.port=" + childPort));
		List<String> command = Listen.command(childPort);
		for (int i = 0; i < command.size(); i++) {
			properties.add("supervisor.children.listener.command[" + i + "]=" + command.get(i));
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(WebApp.class)
			.web(WebApplicationType.SERVLET)
			.properties(properties.toArray(String[]::new))
			.run();
		CompletableFuture<Void> closed = null;
		try {
			Supervisor supervisor = context.getBean(Supervisor.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> supervisor.snapshot("listener").orElseThrow().state() == ChildState.RUNNING);
			long childPid = supervisor.snapshot("listener").orElseThrow().pid();
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			CompletableFuture<HttpResponse<String>> response = HttpClient.newHttpClient()
				.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/via-child")).build(),
						HttpResponse.BodyHandlers.ofString());
			assertThat(context.getBean(WebApp.class).entered.await(30, TimeUnit.SECONDS)).isTrue();
			closed = CompletableFuture.runAsync(context::close);
			assertThat(response.get(60, TimeUnit.SECONDS).body()).isEqualTo("child answered");
			closed.get(60, TimeUnit.SECONDS);
			assertThat(LiveProcesses.isAlive(childPid)).isFalse();
		}
		finally {
			if (closed == null) {
				context.close();
			}
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@RestController
	static class WebApp {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch childStopped = new CountDownLatch(1);

		@Value("${child.port}")
		int childPort;

		@Bean
		ApplicationListener<ChildStoppedEvent> childStoppedListener() {
			return (event) -> this.childStopped.countDown();
		}

		/**
		 * Waits as a slow request would (at most 3 s, less if its child is stopped
		 * meanwhile), then uses the child.
		 */
		@GetMapping("/via-child")
		String viaChild() throws InterruptedException {
			this.entered.countDown();
			this.childStopped.await(3, TimeUnit.SECONDS);
			try (Socket socket = new Socket("127.0.0.1", this.childPort); InputStream in = socket.getInputStream()) {
				return (in.read() == '\n') ? "child answered" : "child closed the connection";
			}
			catch (IOException ex) {
				return "child unreachable: " + ex.getMessage();
			}
		}

	}

}
