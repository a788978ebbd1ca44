package dev.tether.supervisor.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.PropertyMapping.Skip;

/**
 * Configures the supervisor of a test's application context:
 * {@code @AutoConfigureSupervisor(enabled = false)} for a context without supervision,
 * {@code @AutoConfigureSupervisor(autostart = false)} for one whose children wait for the
 * test to start them. Each attribute left at its default leaves the application's
 * configuration alone.
 * <p>
 * The attributes set {@code supervisor.enabled} and
 * {@code supervisor.defaults.autostart}, above the application's configuration; a child
 * that sets {@code autostart} itself keeps its own value. Contexts with different
 * settings are cached apart.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@PropertyMapping("supervisor")
public @interface AutoConfigureSupervisor {

	/**
	 * Whether the context supervises its children at all ({@code supervisor.enabled}).
	 * @return whether supervision is on
	 */
	@PropertyMapping(value = "enabled", skip = Skip.ON_DEFAULT_VALUE)
	boolean enabled() default true;

	/**
	 * Whether children start when the application is ready
	 * ({@code supervisor.defaults.autostart}).
	 * @return whether children start by themselves
	 */
	@PropertyMapping(value = "defaults.autostart", skip = Skip.ON_DEFAULT_VALUE)
	boolean autostart() default true;

}
