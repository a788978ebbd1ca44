package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.registry.FileChildRegistry;

import static org.awaitility.Awaitility.await;

/**
 * A second JVM, started with whatever network preferences its test gives it, running a
 * {@link Supervisor} over one Python HTTP server on 127.0.0.1 (or the address it is
 * given, probed there) with a liveness probe every 200 ms. Once five probes have ended
 * (or the child was restarted), prints
 * {@code RESULTS <passed> <failed> <restarts> <last detail>}, stops the child and exits.
 * <p>
 * Arguments: {@code <installation-id> <state-directory> <port> [<address>]}.
 */
public final class ProbeAddressJvm {

	private ProbeAddressJvm() {
	}

	public static void main(String[] args) throws Exception {
		Path state = Path.of(args[1]);
		int port = Integer.parseInt(args[2]);
		String address = (args.length > 3) ? args[3] : ChildSpec.DEFAULT_PROBE_ADDRESS;
		ChildSpec web = ChildSpec.builder("web", PythonListener.httpServer(address, port))
			.port(port)
			.probeAddress(address)
			.livenessHttpGet("/")
			.livenessPeriod(Duration.ofMillis(200))
			.livenessFailureThreshold(2)
			.build();
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
		try (FileChildRegistry registry = FileChildRegistry.open(state);
				Supervisor supervisor = SecondJvm.supervisorIn(args[0], state, registry).child(web).build()) {
			ticker.scheduleWithFixedDelay(supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
			supervisor.start("web");
			List<ProbeResult> results = new ArrayList<>();
			List<Instant> seen = new ArrayList<>();
			ChildSnapshot last = await().atMost(Duration.ofSeconds(60)).until(() -> {
				ChildSnapshot child = supervisor.snapshot("web").orElseThrow();
				ProbeResult liveness = child.liveness();
				if (liveness != null && !seen.contains(liveness.at())) {
					seen.add(liveness.at());
					results.add(liveness);
				}
				return child;
			}, (child) -> results.size() >= 5 || child.restarts() > 0);
			long passed = results.stream().filter(ProbeResult::passed).count();
			System.out.println("RESULTS " + passed + " " + (results.size() - passed) + " " + last.restarts() + " "
					+ (results.isEmpty() ? "none" : results.get(results.size() - 1).detail()));
			System.out.flush();
			ticker.shutdown();
			ticker.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

}
