package dev.tether.supervisor.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.tether.supervisor.ChildMarkers;

/**
 * Fails a test class that leaves behind a live process carrying {@code TETHER_SUBPROCESS=1} from a test
 * installation (one whose id starts with {@value #TEST_INSTALLATION_PREFIX}), after killing it so that the next
 * class starts clean. Registered for every test class through JUnit's extension auto-detection.
 */
public class NoLeakedChildrenExtension implements AfterAllCallback {

	/** Every installation id used by tests starts with this. */
	public static final String TEST_INSTALLATION_PREFIX = "test-";

	@Override
	public void afterAll(ExtensionContext context) {
		try {
			Awaitility.await("no leaked test children")
				.atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> leaked().isEmpty());
		}
		catch (ConditionTimeoutException ex) {
			List<Long> leaked = leaked();
			String described = leaked.stream()
				.map((pid) -> pid + " " + LiveProcesses.commandLine(pid))
				.collect(Collectors.joining("; "));
			leaked.forEach((pid) -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
			throw new AssertionError(context.getDisplayName() + " leaked " + leaked.size() + " child process(es): "
					+ described);
		}
	}

	private static List<Long> leaked() {
		return LiveProcesses.withEnvironmentEntry(ChildMarkers.SUBPROCESS_MARKER_ENV + "=1")
			.stream()
			.filter((pid) -> LiveProcesses.environ(pid)
				.stream()
				.anyMatch((entry) -> entry.startsWith(ChildMarkers.INSTALLATION_ENV + "=" + TEST_INSTALLATION_PREFIX)))
			.toList();
	}

}
