package dev.tether.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.Spawner;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's layering, as {@code docs/architecture.md} states it: a small public API,
 * internals behind it that form no cycle, and one path for every signal.
 */
class ArchitectureTests {

	private static final String INTERNAL = "dev.tether.supervisor.internal..";

	/**
	 * The root package's vocabulary, which internals may use: it depends on no internal
	 * package.
	 */
	private static final Class<?>[] VALUE_TYPES = { ChildKind.class, ExitStatus.class, StopOutcome.class,
			ParentDeathMechanism.class, OrphanPolicy.class, ReconciliationReport.class, SpawnFeatures.class,
			SpawnException.class, UnsafeDirectoryException.class };

	private static final Set<String> SIGNAL_CALLS = Set.of("kill", "pidfdSendSignal", "pidfdSendSignalToGroup");

	private static final Set<String> JDK_DESTROY_CALLS = Set.of("destroy", "destroyForcibly");

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.tether.supervisor");

	@Test
	void internalPackagesFormNoCycle() {
		slices().matching("dev.tether.supervisor.internal.(*)..").should().beFreeOfCycles().check(CORE);
	}

	@Test
	void internalsUseOnlyTheRootPackagesValueTypes() {
		ArchRule rule = noClasses().that()
			.resideInAPackage(INTERNAL)
			.should()
			.dependOnClassesThat(resideInAPackage("dev.tether.supervisor").and(not(belongToAnyOf(VALUE_TYPES))))
			.because("internals serve the Supervisor; only the root package's value types are shared vocabulary");
		rule.check(CORE);
	}

	@Test
	void theValueTypesAndTheOutputApiDependOnNoInternal() {
		noClasses().that()
			.belongToAnyOf(VALUE_TYPES)
			.should()
			.dependOnClassesThat()
			.resideInAPackage(INTERNAL)
			.check(CORE);
		noClasses().that()
			.resideInAPackage("dev.tether.supervisor.output")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(INTERNAL)
			.check(CORE);
	}

	@Test
	void everySignalGoesThroughTheVerifiedPathOrTheReapersOwnChildren() {
		noClasses().that()
			.doNotBelongToAnyOf(ProcessSignaller.class, Reaper.class, Posix.class)
			.should()
			.callMethodWhere(call(Posix.class, SIGNAL_CALLS))
			.because("a signal reaches a process only once it is verified ours, or while it is our unreaped child")
			.check(CORE);
		noClasses().that()
			.doNotBelongToAnyOf(ChildProcess.class, Spawner.class)
			.should()
			.callMethodWhere(call(Reaper.class, Set.of("signalGroupUnreaped")))
			.check(CORE);
		noClasses().that()
			.doNotBelongToAnyOf(ChildProcess.class, Spawner.class)
			.and()
			.doNotHaveFullyQualifiedName("dev.tether.supervisor.internal.spawn.ParentDeath")
			.should()
			.callMethodWhere(call(Process.class, JDK_DESTROY_CALLS).or(call(ProcessHandle.class, JDK_DESTROY_CALLS)))
			.because("only a process this JVM started and still holds is destroyed through the JDK")
			.check(CORE);
	}

	@Test
	void onlyTheNativeLayerBindsNativeCode() {
		noClasses().that()
			.resideOutsideOfPackage("dev.tether.supervisor.internal.os")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("jnr..", "com.kenai..")
			.because("native calls are bound once, in internal.os, with their errors turned into values")
			.check(CORE);
	}

	@Test
	void aPublicTypeIsApiOrInternal() {
		classes().that()
			.arePublic()
			.and()
			.areTopLevelClasses()
			.should()
			.resideInAnyPackage("dev.tether.supervisor", "dev.tether.supervisor.output",
					"dev.tether.supervisor.registry", INTERNAL)
			.because("API lives in dev.tether.supervisor, .output and .registry (listed in docs/architecture.md); "
					+ "everything else is package-private or under dev.tether.supervisor.internal")
			.check(CORE);
	}

	@Test
	void thePublicApiIsExactlyWhatTheArchitectureDocumentLists() throws IOException {
		Set<String> documented = documentedApiTypes();
		Set<String> actual = CORE.stream()
			.filter((type) -> type.getModifiers().contains(JavaModifier.PUBLIC) && type.isTopLevelClass())
			.filter((type) -> !type.getPackageName().startsWith("dev.tether.supervisor.internal"))
			.map(JavaClass::getSimpleName)
			.collect(Collectors.toCollection(TreeSet::new));
		assertThat(actual).as("public types of the API packages, against docs/architecture.md")
			.containsExactlyInAnyOrderElementsOf(documented);
	}

	private static Set<String> documentedApiTypes() throws IOException {
		List<String> lines = Files.readAllLines(Path.of("..", "docs", "architecture.md"));
		int start = lines.indexOf("## The public API");
		assertThat(start).as("docs/architecture.md has a section '## The public API'").isNotNegative();
		Set<String> names = new TreeSet<>();
		Pattern type = Pattern.compile("`([A-Z]\\w+)`");
		for (String line : lines.subList(start + 1, lines.size())) {
			if (line.startsWith("## ")) {
				break;
			}
			if (line.startsWith("| `dev.tether.supervisor")) {
				Matcher matcher = type.matcher(line);
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			}
		}
		return names;
	}

	private static DescribedPredicate<JavaCall<?>> call(Class<?> owner, Set<String> names) {
		return describe(owner.getSimpleName() + "." + names,
				(call) -> call.getTargetOwner().isEquivalentTo(owner) && names.contains(call.getName()));
	}

}
