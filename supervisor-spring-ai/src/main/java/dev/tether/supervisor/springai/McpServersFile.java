package dev.tether.supervisor.springai;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

import dev.tether.supervisor.boot.InvalidSupervisorConfigurationException;

/**
 * Reads {@code supervisor.mcp.servers-configuration} ({@link McpServersJson}) into the
 * configuration, in a property source of its own after every other: each server is
 * {@code supervisor.children.<name>} with its command, environment and
 * {@code mcp.transport: stdio}. Why in the environment: the starter then binds, checks,
 * defaults and refreshes them as children declared in {@code application.yml}, and its
 * errors name the entry of the file.
 * <p>
 * A name that {@code supervisor.children} also declares fails startup naming both: two
 * definitions of one server are a mistake to fix, not one to settle by precedence.
 */
final class McpServersFile implements EnvironmentPostProcessor, Ordered {

	static final String PROPERTY = "supervisor.mcp.servers-configuration";

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	@Override
	public int getOrder() {
		// Why after: the location may be set in application.yml, and the check of names
		// declared twice needs the application's own configuration.
		return ConfigDataEnvironmentPostProcessor.ORDER + 1;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		@Nullable String location = Binder.get(environment).bind(PROPERTY, String.class).orElse(null);
		if (location == null) {
			return;
		}
		ResourceLoader loader = (application.getResourceLoader() != null) ? application.getResourceLoader()
				: new DefaultResourceLoader(application.getClassLoader());
		McpServersJson servers = McpServersJson.read(loader.getResource(location), location);
		for (String name : servers.names()) {
			ConfigurationProperty declared = declared(environment, name);
			if (declared != null) {
				throw new InvalidSupervisorConfigurationException(PROPERTY,
						"(" + location + ") declares the MCP server '" + name + "', which " + declared.getName() + " ("
								+ declared.getOrigin() + ") declares too: remove one of them",
						null);
			}
		}
		environment.getPropertySources()
			.addLast(new OriginTrackedMapPropertySource("Tether MCP servers [" + location + "]",
					servers.properties(McpServersFile::child), true));
	}

	/** A key of the application's configuration under the child {@code name}, if any. */
	private static @Nullable ConfigurationProperty declared(ConfigurableEnvironment environment, String name) {
		ConfigurationPropertyName child = child(name);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				ConfigurationPropertyName key = iterable.stream().filter(child::isAncestorOf).findFirst().orElse(null);
				if (key != null) {
					return source.getConfigurationProperty(key);
				}
			}
		}
		return null;
	}

	private static ConfigurationPropertyName child(String name) {
		// Why brackets for a dotted name: as the starter reads them, 'a.b' is one child.
		boolean plain = !name.contains(".") && ConfigurationPropertyName.isValid(name);
		return CHILDREN.append(plain ? name : "[" + name + "]");
	}

}
