package dev.tether.supervisor.springai;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.mcp.McpToolFilter;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.ai.mcp.client.common.autoconfigure.configurer.McpSyncClientConfigurer;
import org.springframework.ai.mcp.client.common.autoconfigure.properties.McpClientCommonProperties;
import org.springframework.ai.mcp.client.common.autoconfigure.properties.McpStdioClientProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.ChildProperties;
import dev.tether.supervisor.boot.ChildSpecCustomizer;
import dev.tether.supervisor.boot.ConfiguredChild;
import dev.tether.supervisor.boot.ConfiguredChildren;
import dev.tether.supervisor.boot.InvalidSupervisorConfigurationException;
import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.boot.SupervisorProperties;
import dev.tether.supervisor.boot.SupervisorStartup;
import dev.tether.supervisor.boot.SupervisorTickObserver;

/**
 * Hands the supervised MCP servers ({@code supervisor.children.<name>.mcp.transport}) to
 * Spring AI's MCP client, as named connections. Only where Spring AI's MCP client is on
 * the classpath.
 */
@AutoConfiguration(after = SupervisorAutoConfiguration.class, before = McpClientAutoConfiguration.class)
@ConditionalOnClass({ NamedClientMcpTransport.class, McpSyncClient.class })
@ConditionalOnBean(Supervisor.class)
public final class TetherMcpAutoConfiguration {

	private static final String PREFIX = "supervisor.children.";

	/**
	 * A child with an MCP transport is an MCP server; over stdio its stdin and stdout are
	 * the client's pipes.
	 */
	@Bean
	ChildSpecCustomizer tetherMcpChildSpecCustomizer() {
		return (child, builder) -> {
			McpTransportType transport = child.settings(McpProperties.class).getTransport();
			if (transport != null) {
				builder.kind(ChildKind.MCP).stdio(transport == McpTransportType.STDIO);
			}
		};
	}

	@Bean
	McpChildren tetherMcpChildren(Supervisor supervisor, SupervisorStartup startup, ConfiguredChildren configured,
			SupervisorProperties supervisorProperties, ObjectProvider<McpStdioClientProperties> springAiStdio,
			ObjectProvider<List<McpSyncClient>> clients, ObjectProvider<McpClientCommonProperties> common,
			ObjectProvider<McpSyncClientConfigurer> configurer, ObjectProvider<McpToolFilter> toolFilter,
			ObjectProvider<McpToolNamePrefixGenerator> prefix, ApplicationEventPublisher events,
			McpChildEvents childEvents) {
		Map<String, ChildTransport> transports = new LinkedHashMap<>();
		Map<String, ChildTransport> optional = new LinkedHashMap<>();
		Map<String, McpPings.Settings> pings = new LinkedHashMap<>();
		for (ConfiguredChild configuredChild : configured.all()) {
			String name = configuredChild.name();
			McpProperties mcp = configuredChild.settings(McpProperties.class);
			McpTransportType type = mcp.getTransport();
			if (type == null) {
				continue;
			}
			ChildSnapshot child = supervisor.snapshot(name)
				.orElseThrow(() -> new InvalidSupervisorConfigurationException(PREFIX + name + ".mcp.transport",
						"is set, but no child '" + name + "' is supervised (set " + PREFIX + name + ".command)", null));
			McpStdioClientProperties stdio = springAiStdio.getIfAvailable();
			if (stdio != null && stdio.getConnections().containsKey(name)) {
				throw new InvalidSupervisorConfigurationException(
						PREFIX + name + ".mcp.transport", "and spring.ai.mcp.client.stdio.connections." + name
								+ " both configure the MCP server '" + name + "': remove the second, Tether runs it",
						null);
			}
			Duration startupTimeout = startupTimeout(name, supervisorProperties);
			ChildTransport transport = transport(name, mcp, type, child, supervisor, startupTimeout);
			transports.put(name, transport);
			if (!mcp.isRequired()) {
				optional.put(name, transport);
			}
			if (mcp.getPing() != null) {
				if (mcp.getPing().isNegative() || mcp.getPing().isZero() || mcp.getPingFailureThreshold() < 1) {
					throw new InvalidSupervisorConfigurationException(PREFIX + name + ".mcp.ping",
							"must be a positive period, with mcp.ping-failure-threshold at least 1", null);
				}
				pings.put(name, new McpPings.Settings(mcp.getPing(), mcp.getPingFailureThreshold()));
			}
		}
		McpClientCommonProperties commonProperties = common.getIfAvailable(McpClientCommonProperties::new);
		McpSyncClientConfigurer syncConfigurer = configurer.getIfAvailable();
		if (!optional.isEmpty() && syncConfigurer == null) {
			String name = optional.keySet().iterator().next();
			throw new InvalidSupervisorConfigurationException(PREFIX + name + ".mcp.required",
					"is false, which needs Spring AI's synchronous MCP client (spring.ai.mcp.client.enabled: true "
							+ "and spring.ai.mcp.client.type: SYNC, the defaults)",
					null);
		}
		childEvents.attach(transports);
		OptionalMcpServers optionalServers = new OptionalMcpServers(optional, commonProperties,
				(syncConfigurer != null) ? syncConfigurer : new McpSyncClientConfigurer(List.of()),
				toolFilter.getIfUnique(), prefix.getIfUnique());
		return new McpChildren(supervisor, startup, transports, optionalServers,
				new McpPings(supervisor, pings, commonProperties.getRequestTimeout()), clients, events);
	}

	static ChildTransport transport(String name, McpProperties mcp, McpTransportType type, ChildSnapshot child,
			Supervisor supervisor, Duration startupTimeout) {
		if (type == McpTransportType.STDIO) {
			return new StdioChildTransport(name, supervisor, startupTimeout, mcp.getMaxMessageSize());
		}
		Integer port = child.port();
		if (port == null) {
			throw new InvalidSupervisorConfigurationException(PREFIX + name + ".port",
					"must be set: mcp.transport " + type.id() + " connects to the child's port", null);
		}
		String path = (mcp.getPath() != null) ? mcp.getPath() : McpProperties.DEFAULT_PATH;
		// Why the probe address: the child listens where its readiness is probed, and the
		// port's ownership is checked there too (IPv4 and IPv6 alike).
		String address = supervisor.spec(name).map(ChildSpec::probeAddress).orElse(ChildSpec.DEFAULT_PROBE_ADDRESS);
		return new HttpChildTransport(name, supervisor, startupTimeout, type, address, port, path);
	}

	/**
	 * The tools of the optional MCP servers ({@code mcp.required: false}) that run and
	 * are initialised, beside Spring AI's provider of the required servers' tools. Only
	 * when a server is optional: an application with one provider keeps one.
	 */
	@Bean
	@Conditional(OnOptionalMcpServer.class)
	OptionalMcpServers tetherMcpOptionalToolCallbacks(McpChildren children) {
		return children.optional();
	}

	@Bean
	List<NamedClientMcpTransport> tetherMcpConnections(McpChildren children) {
		return children.connections();
	}

	@Bean
	McpChildEvents tetherMcpChildEvents() {
		return new McpChildEvents();
	}

	/**
	 * Why lazily: the tick's observers are made with the supervision lifecycle, which the
	 * MCP children need.
	 */
	@Bean
	SupervisorTickObserver tetherMcpTickObserver(ObjectProvider<McpChildren> children) {
		return (duration) -> children.ifAvailable(McpChildren::ticked);
	}

	private static Duration startupTimeout(String name, SupervisorProperties properties) {
		ChildProperties child = properties.getChildren().get(name);
		@Nullable Duration own = (child != null) ? child.getStartupTimeout() : null;
		@Nullable Duration inherited = properties.getDefaults().getStartupTimeout();
		if (own != null) {
			return own;
		}
		return (inherited != null) ? inherited : ChildSpec.builder(name, List.of(name)).build().startupTimeout();
	}

}
