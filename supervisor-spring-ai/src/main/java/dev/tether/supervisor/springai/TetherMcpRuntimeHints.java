package dev.tether.supervisor.springai;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What reflection reaches of this module in an application processed ahead of time (a
 * native image): {@code supervisor.children.<name>.mcp.*}, which the starter binds into
 * {@link McpProperties} through its accessors (its {@link McpTransportType} from text),
 * {@code supervisor.mcp.*} ({@link McpServersProperties}), and {@link McpServersFile},
 * which Spring Boot makes from {@code META-INF/spring.factories}.
 * <p>
 * Why in {@code META-INF/spring/aot.factories} rather than imported by
 * {@link TetherMcpAutoConfiguration}: the starter binds these settings for every child
 * wherever this jar is present, also where that auto-configuration does not apply (no MCP
 * client on the classpath).
 */
class TetherMcpRuntimeHints implements RuntimeHintsRegistrar {

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		this.bindings.registerReflectionHints(hints.reflection(), McpProperties.class, McpServersProperties.class);
		hints.reflection().registerType(McpServersFile.class, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
	}

}
