package dev.tether.sample;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.boot.test.NoChildLeftRunning;
import dev.tether.supervisor.boot.test.SupervisedChildren;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tether's console in Spring Boot Admin, in headless Chromium: the test's context is the
 * sample with its Spring Boot Admin at {@code /admin} (children open for writes), and a
 * second sample, read-only, is registered in it. Skipped, saying why, where Chromium or
 * its driver is missing. With {@code -Dtether.screenshots=true} it saves the pictures of
 * {@code docs/operator-console.md}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// Why closed after the class: the browser leaves Spring Boot Admin's event stream open on
// the server until its next ping finds the connection gone, and graceful shutdown waits
// for it. Closed at the JVM's exit, with the other cached contexts, that wait ran past
// the 30 s surefire allows a test JVM to exit.
@DirtiesContext
@NoChildLeftRunning
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorConsoleBrowserTests {

	private static final File CHROMIUM = new File("/usr/bin/chromium");

	private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

	private static final Path SCREENSHOTS = Path.of("..", "docs", "images");

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	private ConfigurableApplicationContext readOnly;

	private ChromeDriverService service;

	private WebDriver browser;

	private Path profile;

	@DynamicPropertySource
	static void freeToolsPort(DynamicPropertyRegistry registry) {
		FreeToolsPort.register(registry);
	}

	@BeforeAll
	void startTheBrowserAndASecondInstance() throws Exception {
		String missing = !CHROMIUM.canExecute() ? CHROMIUM.getPath()
				: !CHROMEDRIVER.canExecute() ? CHROMEDRIVER.getPath() : null;
		if (missing != null) {
			System.out.println("OperatorConsoleBrowserTests skipped: " + missing
					+ " is missing (Debian: apt-get install chromium chromium-driver)");
		}
		Assumptions.assumeTrue(missing == null, () -> missing + " is missing");
		this.readOnly = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--spring.application.name=tether-sample-read-only", "--management.endpoint.children.access=read-only",
				"--supervisor.installation-id=" + TestRun.installationId("console"),
				"--supervisor.state-directory=" + TestRun.directory("console-state"),
				"--supervisor.children.tools.port=" + freePort());
		this.profile = TestRun.directory("chromium-profile");
		this.service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).usingAnyFreePort().build();
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM)
			.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--user-data-dir=" + this.profile, "--window-size=1680,1000");
		this.browser = new ChromeDriver(this.service, options);
		String readOnlyBase = "http://127.0.0.1:" + this.readOnly.getEnvironment().getProperty("local.server.port");
		HttpResponse<String> registered = this.http.send(HttpRequest.newBuilder(admin("/instances"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"name": "tether-sample-read-only", "managementUrl": "%1$s/actuator",
					 "healthUrl": "%1$s/actuator/health", "serviceUrl": "%1$s/"}""".formatted(readOnlyBase)))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(registered.statusCode()).isEqualTo(201);
	}

	@AfterAll
	void stopTheBrowserAndTheSecondInstance() throws IOException {
		if (this.browser != null) {
			this.browser.quit();
		}
		if (this.service != null) {
			this.service.stop();
		}
		if (this.readOnly != null) {
			this.readOnly.close();
		}
	}

	@Test
	@Order(1)
	void theChildrenViewListsEveryChildWithItsState(SupervisedChildren children) throws Exception {
		for (String name : List.of("greeter", "clock", "tools")) {
			children.awaitState(name, ChildState.RUNNING);
		}
		this.browser.get(admin("/instances/" + instanceId("tether-sample") + "/children").toString());
		eventually().untilAsserted(() -> {
			List<WebElement> rows = this.browser.findElements(By.cssSelector(".tether-children tbody tr[data-child]"));
			assertThat(rows).extracting((row) -> row.getAttribute("data-child"))
				.containsExactlyInAnyOrder("greeter", "clock", "tools");
			assertThat(rows).extracting((row) -> row.findElement(By.cssSelector(".tether-col-state")).getText())
				.containsOnly("RUNNING");
		});
	}

	@Test
	@Order(2)
	void aChildKilledFromOutsideShowsItsRestart(SupervisedChildren children) throws Exception {
		long before = children.awaitState("greeter", ChildState.RUNNING).pid();
		int restarts = child("greeter").get("restarts").asInt();
		ProcessHandle.of(before).ifPresent(ProcessHandle::destroyForcibly);
		eventually().untilAsserted(() -> {
			WebElement row = row("greeter");
			assertThat(cell(row, "restarts")).isEqualTo(String.valueOf(restarts + 1));
			assertThat(cell(row, "exit")).startsWith("signal 9");
			assertThat(cell(row, "pid")).isNotIn(String.valueOf(before), "—");
		});
	}

	@Test
	@Order(3)
	void theRestartButtonRestartsTheChildWhereWritesAreAllowed(SupervisedChildren children) throws Exception {
		long before = children.awaitState("greeter", ChildState.RUNNING).pid();
		eventually().until(() -> !row("greeter").findElements(By.cssSelector("[data-action=restart]")).isEmpty());
		row("greeter").findElement(By.cssSelector("[data-action=restart]")).click();
		this.browser.findElement(By.cssSelector(".tether-confirm-yes")).click();
		eventually()
			.untilAsserted(() -> assertThat(this.browser.findElement(By.cssSelector(".tether-answer.is-ok")).getText())
				.startsWith("restart greeter: HTTP 200"));
		eventually().until(() -> child("greeter").get("pid").asLong(0) != before);
	}

	@Test
	@Order(4)
	void theLogViewShowsALineTheChildPrinted(SupervisedChildren children) throws Exception {
		long pid = children.awaitState("greeter", ChildState.RUNNING).pid();
		row("greeter").findElement(By.cssSelector(".tether-log-open")).click();
		eventually()
			.untilAsserted(() -> assertThat(this.browser.findElement(By.cssSelector(".tether-log-text")).getText())
				.contains("greeter: started as pid " + pid));
		screenshot("operator-console-children.png");
	}

	@Test
	@Order(5)
	void aReadOnlyInstanceHasNoActionsAndSaysWhy() throws Exception {
		this.browser.get(admin("/instances/" + instanceId("tether-sample-read-only") + "/children").toString());
		eventually()
			.untilAsserted(() -> assertThat(this.browser.findElement(By.cssSelector(".tether-writes-off")).getText())
				.contains("read-only"));
		assertThat(this.browser.findElements(By.cssSelector(".tether-action"))).isEmpty();
		assertThat(this.browser.findElements(By.cssSelector(".tether-children tbody tr[data-child]"))).hasSize(3);
	}

	@Test
	@Order(6)
	void theFleetViewShowsEveryInstancesChildrenAndTheirCounts() throws IOException {
		this.browser.get(admin("/tether").toString());
		eventually().untilAsserted(() -> {
			List<WebElement> rows = this.browser.findElements(By.cssSelector(".tether-fleet tbody tr[data-child]"));
			assertThat(rows).hasSize(6);
			assertThat(rows).extracting((row) -> cell(row, "instance"))
				.anyMatch((instance) -> instance.startsWith("tether-sample ("))
				.anyMatch((instance) -> instance.startsWith("tether-sample-read-only ("));
			assertThat(this.browser.findElement(By.cssSelector(".tether-count[data-state='']")).getText())
				.isEqualTo("All 6");
			assertThat(this.browser.findElement(By.cssSelector(".tether-count[data-state=RUNNING]")).getText())
				.isEqualTo("RUNNING 6");
		});
		screenshot("operator-console-fleet.png");
	}

	/**
	 * Awaits with a deadline, through moments when the page has not drawn the element
	 * yet.
	 */
	private static ConditionFactory eventually() {
		return Awaitility.await().atMost(DEADLINE).ignoreExceptions();
	}

	private WebElement row(String child) {
		return this.browser.findElement(By.cssSelector(".tether-children tbody tr[data-child=" + child + "]"));
	}

	private static String cell(WebElement row, String column) {
		return row.findElement(By.cssSelector(".tether-col-" + column)).getText();
	}

	private URI admin(String path) {
		return URI.create("http://127.0.0.1:" + this.port + "/admin" + path);
	}

	/**
	 * The id Spring Boot Admin gave the instance of that name, once it knows its
	 * endpoints.
	 */
	private String instanceId(String name) {
		return eventually().until(() -> {
			JsonNode instances = get(admin("/instances"));
			for (JsonNode instance : instances) {
				boolean hasChildren = false;
				for (JsonNode endpoint : instance.get("endpoints")) {
					hasChildren |= endpoint.get("id").asString().equals("children");
				}
				if (instance.get("registration").get("name").asString().equals(name) && hasChildren) {
					return instance.get("id").asString();
				}
			}
			return null;
		}, (id) -> id != null);
	}

	private JsonNode child(String name) throws Exception {
		return get(URI.create("http://127.0.0.1:" + this.port + "/actuator/children/" + name));
	}

	private JsonNode get(URI uri) throws Exception {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(uri).header("Accept", "application/json").build(),
				HttpResponse.BodyHandlers.ofString());
		return this.json.readTree(response.body());
	}

	private void screenshot(String file) throws IOException {
		if (Boolean.getBoolean("tether.screenshots")) {
			byte[] png = ((ChromeDriver) this.browser).getScreenshotAs(OutputType.BYTES);
			Files.createDirectories(SCREENSHOTS);
			Files.write(SCREENSHOTS.resolve(file), png);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
