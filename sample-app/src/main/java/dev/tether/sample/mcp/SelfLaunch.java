package dev.tether.sample.mcp;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * How to start this application again as a process of its own, for the MCP servers in
 * {@code application.yml}: {@code sample.self.classpath} (this JVM's classpath, absolute,
 * since a child runs in a directory of its own) and {@code sample.self.main-class}. From
 * the packaged jar the main class is Spring Boot's launcher, which reads the application
 * from the jar; from classes on a classpath ({@code spring-boot:run}, tests) it is the
 * application.
 */
class SelfLaunch implements EnvironmentPostProcessor {

	private static final String JAR_LAUNCHER = "org.springframework.boot.loader.launch.JarLauncher";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		String classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.isEmpty())
			.map((entry) -> Path.of(entry).toAbsolutePath().toString())
			.collect(Collectors.joining(File.pathSeparator));
		// Why the system class loader: in the packaged jar only the launcher is on it,
		// the application is nested.
		boolean packaged = ClassLoader.getSystemClassLoader()
			.getResource(JAR_LAUNCHER.replace('.', '/') + ".class") != null;
		String mainClass = packaged ? JAR_LAUNCHER : "dev.tether.sample.SampleApplication";
		environment.getPropertySources()
			.addLast(new MapPropertySource("sampleSelfLaunch",
					Map.of("sample.self.classpath", classpath, "sample.self.main-class", mainClass)));
	}

}
