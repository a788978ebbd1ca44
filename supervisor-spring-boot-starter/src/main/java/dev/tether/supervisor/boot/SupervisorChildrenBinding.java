package dev.tether.supervisor.boot;

import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * Binds the {@link SupervisorProperties} bean's children from each child's own keys
 * ({@link SupervisorPropertiesBinder#bindChildren}) in place of Boot's binder over the
 * whole environment, which looks every setting of every child up in every source (most of
 * the start of an application with 1,000 children). The rest of the bean is bound by Boot
 * as any {@code @ConfigurationProperties}; a value that does not convert fails the same
 * way, naming the property.
 */
final class SupervisorChildrenBinding implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	private final Environment environment;

	SupervisorChildrenBinding(Environment environment) {
		this.environment = environment;
	}

	@Override
	public BindHandler apply(BindHandler handler) {
		return new ChildrenHandler(handler, this.environment);
	}

	/** One binding of one bean: Boot asks for a handler per bean. */
	private static final class ChildrenHandler extends AbstractBindHandler {

		private final Environment environment;

		private boolean supervisorProperties;

		ChildrenHandler(BindHandler parent, Environment environment) {
			super(parent);
			this.environment = environment;
		}

		@Override
		public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target,
				BindContext context) {
			if (context.getDepth() == 0) {
				this.supervisorProperties = target.getType().resolve() == SupervisorProperties.class;
			}
			if (this.supervisorProperties && context.getDepth() == 1 && name.equals(CHILDREN)) {
				// Why null: the binder then leaves the property as it is.
				return null;
			}
			return super.onStart(name, target, context);
		}

		@Override
		public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				@Nullable Object result) throws Exception {
			if (this.supervisorProperties && context.getDepth() == 0) {
				Supplier<?> existing = target.getValue();
				Object bound = (result != null) ? result : (existing != null) ? existing.get() : null;
				if (bound instanceof SupervisorProperties properties) {
					Map<String, ChildProperties> children = SupervisorPropertiesBinder.bindChildren(this.environment);
					// Why replaced, not merged: a rebinding (a refreshed configuration)
					// drops the children no longer configured, as Boot's binding did.
					properties.getChildren().clear();
					properties.getChildren().putAll(children);
				}
			}
			super.onFinish(name, target, context, result);
		}

	}

}
