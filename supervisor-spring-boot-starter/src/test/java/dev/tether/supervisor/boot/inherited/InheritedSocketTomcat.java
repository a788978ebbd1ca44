package dev.tether.supervisor.boot.inherited;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A Tomcat child whose connector takes the listening socket it inherits on its standard
 * input ({@code useInheritedChannel}, what docs/socket-activation.md sets on a Spring
 * Boot child through a connector customizer); its configured port is a fallback it must
 * not use. Answers every request with its pid.
 * <p>
 * Arguments: {@code <base-directory> <fallback-port>}.
 */
public final class InheritedSocketTomcat {

	private InheritedSocketTomcat() {
	}

	public static void main(String[] args) throws Exception {
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(args[0]);
		Connector connector = new Connector();
		connector.setPort(Integer.parseInt(args[1]));
		connector.setProperty("useInheritedChannel", "true");
		tomcat.setConnector(connector);
		Context context = tomcat.addContext("", null);
		Tomcat.addServlet(context, "pid", new PidServlet());
		context.addServletMappingDecoded("/", "pid");
		tomcat.start();
		// Why: as a Spring Boot child with server.shutdown=graceful does, the connector
		// stops accepting and the requests in hand are answered before the JVM exits;
		// what waits in the socket's backlog is left to the next process.
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				tomcat.stop();
			}
			catch (LifecycleException ex) {
				ex.printStackTrace();
			}
		}));
		tomcat.getServer().await();
	}

	static final class PidServlet extends HttpServlet {

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.getOutputStream()
				.write((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII));
		}

	}

}
