package dev.tether.sample;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.test.AutoConfigureSupervisor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's other beans without its children, as a test of a web layer would have them.
 */
@SpringBootTest
@AutoConfigureSupervisor(enabled = false)
class SupervisionOffTests {

	@Autowired
	ApplicationContext context;

	@Test
	void noSupervisorAndNoChildren() {
		assertThat(this.context.getBeanProvider(Supervisor.class).getIfAvailable()).isNull();
	}

}
