package dev.tether.supervisor.boot.testcontext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * {@code supervisor.state-directory} and {@code supervisor.installation-id} of one test
 * context: a temporary directory, created when the supervisor first asks for it, and
 * {@code <application-name>-test-<random>}.
 */
class IsolatedSupervisorPropertySource extends EnumerablePropertySource<Object> {

	static final String NAME = "tetherTestIsolation";

	static final String STATE_DIRECTORY = "supervisor.state-directory";

	static final String INSTALLATION_ID = "supervisor.installation-id";

	/** Prefix of the temporary state directories, in {@code java.io.tmpdir}. */
	static final String STATE_DIRECTORY_PREFIX = "tether-test-";

	private static final Logger logger = LoggerFactory.getLogger(IsolatedSupervisorPropertySource.class);

	private final String installationId;

	private @Nullable Path stateDirectory;

	IsolatedSupervisorPropertySource(@Nullable String applicationName) {
		super(NAME, new Object());
		this.installationId = installationIdFor(applicationName);
	}

	// Why a random id: reconciliation stops verified processes of its installation, so a
	// test context must never share one with a running instance of the application or
	// with another cached context.
	private static String installationIdFor(@Nullable String applicationName) {
		String base = (applicationName == null || applicationName.isBlank()) ? "default"
				: applicationName.replaceAll("[^A-Za-z0-9._-]", "-").replaceAll("^[._-]+", "");
		base = base.isEmpty() ? "default" : base.substring(0, Math.min(base.length(), 100));
		byte[] random = new byte[4];
		ThreadLocalRandom.current().nextBytes(random);
		return base + "-test-" + HexFormat.of().formatHex(random);
	}

	@Override
	public String[] getPropertyNames() {
		return new String[] { STATE_DIRECTORY, INSTALLATION_ID };
	}

	@Override
	public @Nullable Object getProperty(String name) {
		return switch (name) {
			case STATE_DIRECTORY -> stateDirectory().toString();
			case INSTALLATION_ID -> this.installationId;
			default -> null;
		};
	}

	private synchronized Path stateDirectory() {
		if (this.stateDirectory == null) {
			try {
				this.stateDirectory = Files.createTempDirectory(STATE_DIRECTORY_PREFIX + this.installationId + "-");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(
						"cannot create a temporary supervisor.state-directory for a test context in "
								+ System.getProperty("java.io.tmpdir") + ": " + ex.getMessage(),
						ex);
			}
		}
		return this.stateDirectory;
	}

	synchronized void deleteStateDirectory() {
		if (this.stateDirectory == null || !Files.exists(this.stateDirectory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(this.stateDirectory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
		catch (IOException ex) {
			logger.warn("Could not remove the test state directory {}", this.stateDirectory, ex);
		}
	}

}
