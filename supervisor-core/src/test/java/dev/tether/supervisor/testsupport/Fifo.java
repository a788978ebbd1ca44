package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plants a FIFO, as a user who wants to freeze whoever opens it would.
 */
public final class Fifo {

	private Fifo() {
	}

	/** Makes a FIFO at {@code path} with {@code mkfifo}. */
	public static Path make(Path path) throws Exception {
		Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
		assertThat(mkfifo.waitFor(20, TimeUnit.SECONDS)).as("mkfifo ended").isTrue();
		assertThat(mkfifo.exitValue()).as("mkfifo's exit code").isZero();
		return path;
	}

}
