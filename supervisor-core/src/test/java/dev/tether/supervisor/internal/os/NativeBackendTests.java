package dev.tether.supervisor.internal.os;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tether.supervisor.testsupport.LiveProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The native backend in force on each JDK, and the same behaviour, errno for errno, from
 * every backend this JDK can run: jnr everywhere, FFM on JDK 22 and later.
 */
@EnabledOnOs(OS.LINUX)
class NativeBackendTests {

	private static final Duration PROMPTLY = Duration.ofSeconds(20);

	private static final int ESRCH = 3;

	@TempDir
	Path temp;

	static Stream<Named<Posix>> backends() throws Exception {
		List<Named<Posix>> backends = new ArrayList<>();
		backends.add(Named.of("jnr", new Posix(new JnrCalls())));
		if (Runtime.version().feature() >= NativeBackends.FFM_FEATURE) {
			backends.add(Named.of("ffm",
					new Posix((NativeCalls) Class.forName("dev.tether.supervisor.internal.os.FfmCalls")
						.getDeclaredConstructor()
						.newInstance())));
		}
		return backends.stream();
	}

	@Test
	void theBackendInForceIsFfmFromJdk22AndJnrBefore() {
		int feature = Runtime.version().feature();
		String expected = (feature >= 22) ? "ffm" : "jnr";
		System.out.println("JDK " + feature + ": native backend " + Posix.get().backend());
		assertThat(Posix.get().backend()).isEqualTo(expected);
		assertThat(Posix.get().isAvailable()).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void spawnsIntoPipesWatchedByEpollAndCollectsTheExit(Posix posix) throws Exception {
		int[] pipe = posix.pipe();
		long pid;
		try {
			pid = PosixSpawn.spawn(posix, "sh", List.of("sh", "-c", "printf 'hello '\"$GREETING\"; exit 7"),
					List.of("PATH=/usr/bin:/bin", "GREETING=world"), Path.of("/dev/null"),
					new PosixSpawn.Output.Descriptors(pipe[1], pipe[1], List.of()), null, null);
		}
		finally {
			posix.close(pipe[1]);
		}
		Epoll epoll = Epoll.create(posix);
		assertThat(epoll).isNotNull();
		assertThat(epoll.addOnce(pipe[0])).isTrue();
		StringBuilder read = new StringBuilder();
		ByteBuffer buffer = ByteBuffer.allocateDirect(256);
		await().atMost(PROMPTLY).until(() -> {
			if (epoll.awaitOne(100) != pipe[0]) {
				return false;
			}
			int count;
			while ((count = posix.read(pipe[0], buffer)) > 0) {
				byte[] bytes = new byte[count];
				buffer.get(0, bytes);
				read.append(new String(bytes, StandardCharsets.UTF_8));
			}
			assertThat(epoll.rearm(pipe[0])).isTrue();
			return count == 0;
		});
		assertThat(read).hasToString("hello world");
		assertThat(posix.read(pipe[0], buffer)).isZero();
		posix.close(pipe[0]);
		assertThat(posix.kill(pid, 0)).as("a zombie is still signallable").isZero();
		Posix.WaitResult[] exit = new Posix.WaitResult[1];
		await().atMost(PROMPTLY).until(() -> (exit[0] = posix.waitpid(pid)).kind() == Posix.WaitResult.Kind.EXITED);
		assertThat((exit[0].status() >> 8) & 0xff).isEqualTo(7);
		assertThat(posix.waitpid(pid).kind()).isEqualTo(Posix.WaitResult.Kind.NOT_A_CHILD);
		assertThat(posix.kill(pid, 0)).isEqualTo(ESRCH);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void opensAListeningSocketThatAChildGetsAsItsStandardInput(Posix posix) throws Exception {
		ActivationSockets sockets = new ActivationSockets(posix);
		int port;
		try (ServerSocket probe = new ServerSocket(0)) {
			port = probe.getLocalPort();
		}
		int fd = sockets.open(InetAddress.getLoopbackAddress(), port, 16);
		try {
			assertThat(fd).isGreaterThanOrEqualTo(ActivationSockets.LOWEST_DESCRIPTOR);
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> sockets.open(InetAddress.getLoopbackAddress(), port, 16))
				.withMessage("bind(127.0.0.1 port " + port + "): Address already in use (EADDRINUSE)");
			try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
				assertThat(client.isConnected()).as("the kernel's backlog takes a connection nobody accepts").isTrue();
			}
			Path log = this.temp.resolve("fds.log");
			long pid = PosixSpawn.spawn(posix, "sh",
					List.of("sh", "-c", "readlink /proc/self/fd/0; readlink /proc/self/fd/3 || echo none"),
					List.of("PATH=/usr/bin:/bin"), Path.of("/dev/null"), new PosixSpawn.Output.AppendTo(log), null,
					new HandedSocket(fd, true));
			await().atMost(PROMPTLY).until(() -> posix.waitpid(pid).kind() == Posix.WaitResult.Kind.EXITED);
			String socket = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
			assertThat(Files.readAllLines(log)).containsExactly(socket, "none");
		}
		finally {
			sockets.close(fd);
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void signalsThroughAPidfdAndSeesItGone(Posix posix) throws Exception {
		long pid = PosixSpawn.spawn(posix, "sleep", List.of("sleep", "60"), List.of("PATH=/usr/bin:/bin"),
				Path.of("/dev/null"), new PosixSpawn.Output.AppendTo(this.temp.resolve("sleep.log")), this.temp, null);
		try {
			assertThat(Files.readString(Path.of("/proc/" + pid + "/cwd/sleep.log"))).isEmpty();
			if (posix.isPidfdAvailable()) {
				int pidfd = posix.pidfdOpen(pid);
				assertThat(pidfd).isNotNegative();
				assertThat(posix.pidfdSendSignal(pidfd, Posix.SIGKILL)).isZero();
				Epoll epoll = Epoll.create(posix);
				assertThat(epoll.add(pidfd)).isTrue();
				assertThat(epoll.await((int) PROMPTLY.toMillis())).isEqualTo(1);
				assertThat(epoll.ready(0)).isEqualTo(pidfd);
				posix.close(pidfd);
			}
			else {
				assertThat(posix.kill(pid, Posix.SIGKILL)).isZero();
			}
		}
		finally {
			posix.kill(pid, Posix.SIGKILL);
			await().atMost(PROMPTLY).until(() -> posix.waitpid(pid).kind() != Posix.WaitResult.Kind.RUNNING);
		}
		assertThat(posix.pidfdOpen(pid)).isEqualTo(-ESRCH);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void lowersThePriorityOfTheCallingThreadAlone(Posix posix) throws Exception {
		int before = niceOfThisThread();
		CompletableFuture<Integer> lowered = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				posix.lowerThisThreadsPriority(3);
				lowered.complete(niceOfThisThread());
			}
			catch (IOException | RuntimeException ex) {
				lowered.completeExceptionally(ex);
			}
		});
		thread.start();
		thread.join();
		assertThat(lowered.get()).isEqualTo(Math.min(19, before + 3));
		assertThat(niceOfThisThread()).isEqualTo(before);
	}

	private static int niceOfThisThread() throws IOException {
		return LiveProcesses.nice(Path.of("/proc/thread-self"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void reportsErrnoValuesNotExceptions(Posix posix) throws Exception {
		assertThat(posix.open(this.temp.resolve("missing").toString(), Posix.O_RDONLY, 0)).isEqualTo(-Posix.ENOENT);
		assertThat(posix.describe(Posix.ENOENT)).isEqualTo("No such file or directory (ENOENT)");
		assertThat(posix.waitpid(1).kind()).isEqualTo(Posix.WaitResult.Kind.NOT_A_CHILD);
		assertThat(posix.kill(Integer.MAX_VALUE, 0)).isEqualTo(ESRCH);
		int[] pipe = posix.pipe();
		assertThat(posix.read(pipe[0], ByteBuffer.allocateDirect(16))).isEqualTo(-Posix.EAGAIN);
		assertThat(posix.pipeCapacity(pipe[0])).isGreaterThanOrEqualTo(4096);
		int resized = posix.resizePipe(pipe[0], 1 << 17);
		assertThat(resized).satisfiesAnyOf((size) -> assertThat(size).isGreaterThanOrEqualTo(1 << 17),
				(size) -> assertThat(size).isEqualTo(-1));
		posix.close(pipe[0]);
		posix.close(pipe[1]);
		assertThatExceptionOfType(NativeSpawnException.class)
			.isThrownBy(() -> PosixSpawn.spawn(posix, "tether-no-such-command", List.of("tether-no-such-command"),
					List.of("PATH=/usr/bin:/bin"), Path.of("/dev/null"),
					new PosixSpawn.Output.AppendTo(this.temp.resolve("none.log")), null, null))
			.withMessage("posix_spawnp tether-no-such-command: No such file or directory (ENOENT)");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("backends")
	void opensAndStatsAFileItCreated(Posix posix) throws Exception {
		Path file = this.temp.resolve("created");
		int fd = posix.open(file.toString(), Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC, 0640);
		assertThat(fd).isNotNegative();
		assertThat(posix.open(file.toString(), Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL, 0640))
			.isEqualTo(-Posix.EEXIST);
		Posix.FileStatus status = posix.fstat(fd);
		posix.close(fd);
		assertThat(status).isEqualTo(new Posix.FileStatus(true, false, posix.geteuid(), 1));
		assertThat((int) Files.getAttribute(file, "unix:mode") & 07777).isEqualTo(0640 & ~umask());
		int[] pipe = posix.pipe();
		assertThat(posix.fstat(pipe[0]).fifo()).isTrue();
		posix.close(pipe[0]);
		posix.close(pipe[1]);
	}

	private static int umask() throws Exception {
		String status = Files.readString(Path.of("/proc/self/status"));
		int at = status.indexOf("Umask:");
		return (at >= 0) ? Integer.parseInt(status.substring(at + 6, status.indexOf('\n', at)).trim(), 8) : 022;
	}

}
