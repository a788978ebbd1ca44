package dev.tether.supervisor.boot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What configuring a child costs at startup, measured in fresh JVMs (a warm JVM hides
 * most of it): an application with {@value #CHILDREN} children against one with a single
 * child. Prints the figures per child; run alone with
 * {@code ./mvnw -o -pl supervisor-spring-boot-starter -am test -Dtest=StartupScaleTests
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class StartupScaleTests {

	private static final int CHILDREN = 500;

	@TempDir
	Path temp;

	@Test
	void checkingAChildCostsLessThanAMillisecond() throws Exception {
		Map<String, Long> one = start(1);
		Map<String, Long> many = start(CHILDREN);
		Map<String, Double> perChild = new HashMap<>();
		many.forEach((figure, millis) -> perChild.put(figure, (millis - one.get(figure)) / (double) (CHILDREN - 1)));
		System.out.printf(
				"Per child, %d children against one: start %.2f ms, binding %.2f ms, checks and supervisor "
						+ "%.3f ms, of the main thread's CPU %.3f ms (totals with %d: start %d ms, binding %d ms, "
						+ "checks %d ms)%n",
				CHILDREN, perChild.get("READY"), perChild.get("BIND"), perChild.get("SPECS"), perChild.get("SPECS_CPU"),
				CHILDREN, many.get("READY"), many.get("BIND"), many.get("SPECS"));
		// Why CPU time: the elapsed time of the step doubled on a machine running a
		// second build beside this one (1.55 ms), while the work per child did not
		// change.
		assertThat(perChild.get("SPECS_CPU")).isLessThan(1.0);
	}

	private Map<String, Long> start(int children) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), ScaleApp.class.getName(), Integer.toString(children),
				this.temp.toString())
			.redirectError(this.temp.resolve("jvm-" + children + ".log").toFile())
			.start();
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
			Map<String, Long> figures = new HashMap<>();
			output.lines()
				.map((line) -> line.split(" "))
				.filter((parts) -> parts.length == 2)
				.forEach((parts) -> figures.put(parts[0], Long.parseLong(parts[1])));
			assertThat(figures).as(output).containsKeys("READY", "BIND", "SPECS", "SPECS_CPU");
			return figures;
		}
		finally {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
