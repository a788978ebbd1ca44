package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the {@link LeakCheck} after each test and after each class, naming the test: a
 * process of this run (or a descendant of this JVM) that appeared during the test and is
 * still alive, or a {@code supervisor-*} thread that appeared and is still running, fails
 * it; leaked processes are then killed so that the next test starts clean. Temporary
 * directories named {@code tether*} that a class leaves in the JVM's temporary directory
 * are reported. Registered for every test class through JUnit's extension auto-detection.
 */
public class NoLeakedChildrenExtension
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	// Why 10 s: a stop or a parent-death signal is asynchronous, and the machines that
	// run this are loaded.
	private static final Duration GRACE = Duration.ofSeconds(10);

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(NoLeakedChildrenExtension.class);

	private static final Path TEMPORARY = Path.of(System.getProperty("java.io.tmpdir"));

	private final LeakCheck check = LeakCheck.ofThisRun();

	@Override
	public void beforeAll(ExtensionContext context) {
		context.getStore(NAMESPACE).put("baseline", this.check.baseline());
		context.getStore(NAMESPACE).put("temporary", temporaryDirectories());
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(NAMESPACE).put("baseline", this.check.baseline());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		LeakCheck.Baseline baseline = context.getStore(NAMESPACE).get("baseline", LeakCheck.Baseline.class);
		String test = context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName();
		assertNoLeakedProcesses(test, baseline);
		try {
			Awaitility.await()
				.pollDelay(Duration.ZERO)
				.atMost(GRACE)
				.until(() -> this.check.threadsLeakedSince(baseline).isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(test + " left threads running: "
					+ this.check.threadsLeakedSince(baseline).stream().map(Thread::getName).toList());
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		String testClass = context.getRequiredTestClass().getSimpleName();
		@SuppressWarnings("unchecked")
		Set<Path> before = context.getStore(NAMESPACE).get("temporary", Set.class);
		Set<Path> left = temporaryDirectories();
		left.removeAll(before);
		if (!left.isEmpty()) {
			// Why only reported: another build on this host writes to the same temporary
			// directory, so a new entry cannot be attributed to this class for certain.
			System.err.println("[leak check] " + testClass + " may have left temporary directories: " + left);
		}
		assertNoLeakedProcesses(testClass, context.getStore(NAMESPACE).get("baseline", LeakCheck.Baseline.class));
	}

	private void assertNoLeakedProcesses(String what, LeakCheck.Baseline baseline) {
		try {
			Awaitility.await()
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(50))
				.atMost(GRACE)
				.until(() -> this.check.leakedSince(baseline).isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			List<LeakCheck.ScopedProcess> leaked = this.check.leakedSince(baseline);
			String described = LeakCheck.describe(leaked);
			leaked.forEach(LeakCheck::kill);
			throw new AssertionError(what + " leaked " + leaked.size() + " process(es): " + described);
		}
	}

	private static Set<Path> temporaryDirectories() {
		Set<Path> found = new HashSet<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(TEMPORARY, "tether*")) {
			entries.forEach(found::add);
		}
		catch (IOException ex) {
			// Nothing to compare against.
		}
		return found;
	}

}
