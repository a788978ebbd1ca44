package dev.tether.supervisor.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fails a test that leaves a child of its application context running: a child that had
 * no process (and was not waiting to restart) before the test and is starting, running or
 * waiting to restart after it. The failure names each such child; they are stopped so the
 * next test of the cached context starts clean. Children the context started itself
 * (autostart) are the context's, and are stopped when it closes.
 * <p>
 * Use on a {@code @SpringBootTest} class. Its test methods may also take a
 * {@link SupervisedChildren} parameter.
 *
 * @see NoChildLeftRunningExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(NoChildLeftRunningExtension.class)
public @interface NoChildLeftRunning {

}
