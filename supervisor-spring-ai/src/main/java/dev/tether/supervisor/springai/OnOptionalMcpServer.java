package dev.tether.supervisor.springai;

import java.util.regex.Pattern;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether an MCP server is configured as optional: {@code mcp.required} is false under a
 * child or under {@code supervisor.defaults}.
 */
class OnOptionalMcpServer implements Condition {

	private static final Pattern REQUIRED = Pattern
		.compile("supervisor\\.(defaults|children\\.[^.]+)\\.mcp\\.required");

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Binder binder = Binder.get(context.getEnvironment());
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				boolean optional = iterable.stream()
					.filter((name) -> REQUIRED.matcher(name.toString()).matches())
					.anyMatch((name) -> !binder.bind(name, Bindable.of(Boolean.class)).orElse(true));
				if (optional) {
					return true;
				}
			}
		}
		return false;
	}

}
