import java.time.Instant;

/**
 * A stand-in for an AI agent: it says hello every few seconds until it is asked to stop.
 * Run with the JDK's launcher: java GreeterAgent.java
 */
public class GreeterAgent {

	public static void main(String[] args) throws InterruptedException {
		String name = System.getenv().getOrDefault("TETHER_AGENT_NAME", "greeter");
		String greeting = System.getenv().getOrDefault("GREETING", "Hello");
		Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println(name + ": stopping")));
		System.out.println(name + ": started as pid " + ProcessHandle.current().pid());
		while (true) {
			System.out.println(Instant.now() + " " + name + ": " + greeting);
			System.out.flush();
			Thread.sleep(5000);
		}
	}

}
