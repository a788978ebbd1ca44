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
 * Binds the {@link SupervisorProperties} bean's children from each child's own keys in
 * place of Boot's binder over the whole environment, which looks every setting of every
 * child up in every source (most of the start of an application with 1,000 children). The
 * rest of the bean is bound by Boot as any {@code @ConfigurationProperties}; a value that
 * does not convert fails the same way, naming the property.
 * <p>
 * At the bean's first binding the children come from the starter's whole pass
 * ({@link SupervisorPropertiesBinder#bind}), which is kept for
 * {@link #configuredChildren()}: the children are then bound once per start, not once for
 * the bean and again for the supervisor.
 */
final class SupervisorChildrenBinding implements ConfigurationPropertiesBindHandlerAdvisor {

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	private final Environment environment;

	private final SupervisorPropertiesBinder binder;

	private boolean boundOnce;

	private @Nullable ConfiguredChildren firstPass;

	private @Nullable RuntimeException firstPassFailure;

	SupervisorChildrenBinding(Environment environment, SupervisorPropertiesBinder binder) {
		this.environment = environment;
		this.binder = binder;
	}

	@Override
	public BindHandler apply(BindHandler handler) {
		return new ChildrenHandler(handler);
	}

	/**
	 * The configured children, from the properties bean's first binding where it was
	 * bound through this advisor, else bound now.
	 * @throws InvalidSupervisorConfigurationException naming every unknown key
	 */
	// Why synchronized: Boot binds beans on whichever thread creates them.
	synchronized ConfiguredChildren configuredChildren() {
		ConfiguredChildren configured = this.firstPass;
		RuntimeException failure = this.firstPassFailure;
		this.firstPass = null;
		this.firstPassFailure = null;
		if (failure != null) {
			throw failure;
		}
		return (configured != null) ? configured : this.binder.bind(this.environment);
	}

	private synchronized Map<String, ChildProperties> childrenOfTheBean() {
		if (!this.boundOnce) {
			this.boundOnce = true;
			try {
				this.firstPass = this.binder.bind(this.environment);
				return this.firstPass.properties().getChildren();
			}
			catch (RuntimeException ex) {
				// Why kept, and the children bound below as well: a value that does not
				// convert then fails the bean in Boot's own binding and analysis, as
				// before; what only the whole pass finds (an unknown key, a module's
				// group) fails the configured children, where it always did.
				this.firstPassFailure = ex;
			}
		}
		// Why no check of unknown keys on a rebinding (a refreshed configuration):
		// ConfigurationRefresher checks them, and refuses the whole refresh.
		return SupervisorPropertiesBinder.bindChildren(this.environment);
	}

	/** One binding of one bean: Boot asks for a handler per bean. */
	private final class ChildrenHandler extends AbstractBindHandler {

		private boolean supervisorProperties;

		ChildrenHandler(BindHandler parent) {
			super(parent);
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
					Map<String, ChildProperties> children = childrenOfTheBean();
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
