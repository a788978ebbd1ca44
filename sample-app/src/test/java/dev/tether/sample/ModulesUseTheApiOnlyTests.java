package dev.tether.sample;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * What is built on the core (the starter, the test support, this application) uses its
 * public API only, never {@code dev.tether.supervisor.internal}. This module sees all
 * three, so the rule lives here.
 */
class ModulesUseTheApiOnlyTests {

	@Test
	void theStarterTheTestSupportAndTheApplicationUseNoInternal() {
		JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("dev.tether");
		noClasses().that()
			.resideInAnyPackage("dev.tether.supervisor.boot..", "dev.tether.sample..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.tether.supervisor.internal..")
			.because("internals may change in any release; docs/architecture.md lists the API")
			.check(classes);
	}

}
