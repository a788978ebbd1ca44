package dev.tether.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.zaxxer.nuprocess.NuAbstractProcessHandler;
import com.zaxxer.nuprocess.NuProcess;
import com.zaxxer.nuprocess.NuProcessBuilder;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteResultHandler;
import org.apache.commons.exec.PumpStreamHandler;
import org.zeroturnaround.exec.ProcessExecutor;
import org.zeroturnaround.exec.StartedProcess;
import org.zeroturnaround.exec.listener.ProcessListener;

import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * Each library the benchmark compares, started the way its documentation suggests, with
 * output discarded.
 */
final class Subjects {

	private static final File DEV_NULL = new File("/dev/null");

	private Subjects() {
	}

	static List<Subject> all(Path work) throws IOException {
		return List.of(new Tether(work, false), new Tether(work, true), new PlainProcessBuilder(), new CommonsExec(),
				new ZtExec(), new NuProcessSubject());
	}

	/**
	 * Tether's supervised spawn: posix_spawnp through the launcher, from its one spawner
	 * thread; with a shepherd ({@code containDescendants} true, what a supervised child
	 * gets by default) or without one.
	 */
	static final class Tether implements Subject {

		private final Spawner spawner;

		private final boolean shepherd;

		Tether(Path work, boolean shepherd) throws IOException {
			this.spawner = new Spawner(15, Files.createDirectories(work.resolve("launcher")));
			this.shepherd = shepherd;
		}

		@Override
		public String name() {
			return this.shepherd ? "Tether (shepherd)" : "Tether (no shepherd)";
		}

		@Override
		public Started start(List<String> command) throws Exception {
			CompletableFuture<Long> exited = new CompletableFuture<>();
			SpawnedChild child = this.spawner.spawn(
					new SpawnRequest(command, System.getenv(), null, DEV_NULL.toPath(), null, this.shepherd),
					(p, status) -> exited.complete(System.nanoTime()));
			if (child.shepherd() != this.shepherd) {
				Posix.get().kill(child.pid(), Started.SIGKILL);
				throw new IllegalStateException(
						"asked for " + name() + " but got the other (is the launcher in force?)");
			}
			// Why the kill-tree request: SIGKILL of a shepherd would leave its command to
			// its parent-death signal.
			return new Started(child.pid(), exited, this.shepherd ? Shepherd.KILL_TREE_SIGNAL : Started.SIGKILL);
		}

		@Override
		public void close() {
			this.spawner.close();
		}

	}

	/** The JDK's {@link ProcessBuilder} with its default launch mechanism. */
	static final class PlainProcessBuilder implements Subject {

		@Override
		public String name() {
			return "ProcessBuilder";
		}

		@Override
		public Started start(List<String> command) throws IOException {
			Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
			CompletableFuture<Long> exited = new CompletableFuture<>();
			process.onExit().thenRun(() -> exited.complete(System.nanoTime()));
			return new Started(process.pid(), exited);
		}

	}

	/** Apache commons-exec, asynchronous execution with a result handler. */
	static final class CommonsExec implements Subject {

		@Override
		public String name() {
			return "commons-exec";
		}

		@Override
		public Started start(List<String> command) throws Exception {
			CompletableFuture<Process> launched = new CompletableFuture<>();
			DefaultExecutor executor = new DefaultExecutor() {
				@Override
				protected Process launch(CommandLine line, Map<String, String> env, Path dir) throws IOException {
					Process process = super.launch(line, env, dir);
					launched.complete(process);
					return process;
				}
			};
			executor.setStreamHandler(new PumpStreamHandler(OutputStream.nullOutputStream()));
			CommandLine line = new CommandLine(command.get(0));
			command.subList(1, command.size()).forEach(line::addArgument);
			CompletableFuture<Long> exited = new CompletableFuture<>();
			executor.execute(line, new ExecuteResultHandler() {
				@Override
				public void onProcessComplete(int exitValue) {
					exited.complete(System.nanoTime());
				}

				@Override
				public void onProcessFailed(ExecuteException ex) {
					exited.complete(System.nanoTime());
				}
			});
			return new Started(launched.get().pid(), exited);
		}

	}

	/** zt-exec, started asynchronously with a listener for the exit. */
	static final class ZtExec implements Subject {

		@Override
		public String name() {
			return "zt-exec";
		}

		@Override
		public Started start(List<String> command) throws Exception {
			CompletableFuture<Long> exited = new CompletableFuture<>();
			StartedProcess started = new ProcessExecutor().command(command)
				.redirectOutput(OutputStream.nullOutputStream())
				.redirectError(OutputStream.nullOutputStream())
				.addListener(new ProcessListener() {
					@Override
					public void afterStop(Process process) {
						exited.complete(System.nanoTime());
					}
				})
				.start();
			return new Started(started.getProcess().pid(), exited);
		}

	}

	/** NuProcess: its own spawn and event loop. */
	static final class NuProcessSubject implements Subject {

		@Override
		public String name() {
			return "NuProcess";
		}

		@Override
		public Started start(List<String> command) {
			CompletableFuture<Long> exited = new CompletableFuture<>();
			NuProcessBuilder builder = new NuProcessBuilder(command);
			builder.setProcessListener(new NuAbstractProcessHandler() {
				@Override
				public void onExit(int exitCode) {
					exited.complete(System.nanoTime());
				}
			});
			NuProcess process = builder.start();
			return new Started(process.getPID(), exited);
		}

	}

}
