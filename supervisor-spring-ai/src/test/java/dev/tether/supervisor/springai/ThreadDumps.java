package dev.tether.supervisor.springai;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.awaitility.core.ConditionTimeoutException;

/**
 * What every thread was doing when a wait for an MCP exchange ran out: this JVM's and
 * each server's ({@code jcmd Thread.print}), added to the timeout. Why: a session that
 * stalls under load once in many runs leaves nothing else to read its cause from.
 */
final class ThreadDumps {

	private ThreadDumps() {
	}

	/** Runs {@code await}; when it times out, the dumps are added to its failure. */
	static void onTimeout(Runnable await, Map<String, Long> servers) {
		try {
			await.run();
		}
		catch (ConditionTimeoutException ex) {
			ex.addSuppressed(new AssertionError("threads of this JVM:\n" + ofThisJvm()));
			servers.forEach((name, pid) -> ex
				.addSuppressed(new AssertionError("threads of server '" + name + "' (" + pid + "):\n" + ofJvm(pid))));
			throw ex;
		}
	}

	private static String ofThisJvm() {
		return Thread.getAllStackTraces()
			.entrySet()
			.stream()
			.map((entry) -> "\"" + entry.getKey().getName() + "\" " + entry.getKey().getState() + "\n"
					+ Arrays.stream(entry.getValue()).map((frame) -> "\tat " + frame).collect(Collectors.joining("\n")))
			.collect(Collectors.joining("\n\n"));
	}

	private static String ofJvm(long pid) {
		Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
		try {
			// Why a file, not the pipe: a reading of the pipe would wait for as long as
			// jcmd runs, beyond any bound; the file is read once jcmd has ended.
			Path dump = Files.createTempFile("thread-dump-" + pid + "-", ".txt");
			try {
				Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
					.redirectErrorStream(true)
					.redirectOutput(dump.toFile())
					.start();
				if (!process.waitFor(30, TimeUnit.SECONDS)) {
					process.destroyForcibly().waitFor();
					return "no dump: jcmd did not answer within 30 s";
				}
				return Files.readString(dump, StandardCharsets.UTF_8);
			}
			finally {
				Files.deleteIfExists(dump);
			}
		}
		catch (IOException ex) {
			return "no dump: " + ex.getMessage();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "no dump: interrupted";
		}
	}

}
