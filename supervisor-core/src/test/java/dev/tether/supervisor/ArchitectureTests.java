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
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.Spawner;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's layering, as {@code docs/architecture.md} states it: the facade
 * ({@link Supervisor} and the entry points beside it) on top, the engine
 * ({@code internal.supervision}) below it, the parts (spawn, stop, identity, reaper,
 * output, ports, probes, reconcile, resources, files) below that, and the native layer
 * ({@code internal.os}) at the bottom; the API's value types (the rest of the root
 * package, {@code output}, {@code registry}) are the vocabulary every layer speaks. No
 * package forms a cycle with another, and one path carries every signal.
 */
class ArchitectureTests {

	private static final String ROOT = "dev.tether.supervisor";

	private static final String INTERNAL = "dev.tether.supervisor.internal..";

	private static final String ENGINE = "dev.tether.supervisor.internal.supervision..";

	private static final String OS = "dev.tether.supervisor.internal.os..";

	/** The root package's entry points: what builds and drives the engine. */
	private static final Set<String> FACADE = Set.of("Supervisor", "SupervisorBuilder", "Signals", "Executables");

	private static final Set<String> SIGNAL_CALLS = Set.of("kill", "pidfdSendSignal", "pidfdSendSignalToGroup");

	private static final Set<String> JDK_DESTROY_CALLS = Set.of("destroy", "destroyForcibly");

	/** Kills a child whose spawn its caller gave up on, before anyone learnt its pid. */
	private static final String SPAWN_TASK = "dev.tether.supervisor.internal.spawn.SpawnTask";

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	/**
	 * The engine's own child: the one holder of an unreaped child's pid besides the
	 * spawner.
	 */
	private static final DescribedPredicate<JavaClass> CHILD_PROCESS_AND_ITS_NESTED = describe(
			"ChildProcess and its nested classes",
			(type) -> topLevel(type).getFullName().equals("dev.tether.supervisor.internal.supervision.ChildProcess"));

	private static final DescribedPredicate<JavaClass> FACADE_CLASSES = describe("the facade",
			(type) -> type.getPackageName().equals(ROOT) && FACADE.contains(topLevel(type).getSimpleName()));

	private static final DescribedPredicate<JavaClass> API_CLASSES = describe("the API's value types",
			(type) -> (type.getPackageName().equals(ROOT) && !FACADE.contains(topLevel(type).getSimpleName()))
					|| type.getPackageName().startsWith(ROOT + ".output")
					|| type.getPackageName().startsWith(ROOT + ".registry"));

	private static final DescribedPredicate<JavaClass> PART_CLASSES = describe("the parts",
			(type) -> type.getPackageName().startsWith(ROOT + ".internal.")
					&& !type.getPackageName().startsWith(ROOT + ".internal.supervision")
					&& !type.getPackageName().startsWith(ROOT + ".internal.os"));

	@Test
	void noPackageFormsACycle() {
		// Why the root is two slices: the facade wires the engine, while the value types
		// (ChildSpec, snapshots, states) are what the engine and the parts speak; each is
		// a layer of its own, and users import both from one package.
		slices().assignedFrom(new SliceAssignment() {

			@Override
			public SliceIdentifier getIdentifierOf(JavaClass type) {
				if (!type.getPackageName().startsWith(ROOT)) {
					return SliceIdentifier.ignore();
				}
				if (type.getPackageName().equals(ROOT)) {
					return SliceIdentifier.of(FACADE_CLASSES.test(type) ? "facade" : "api");
				}
				return SliceIdentifier.of(type.getPackageName());
			}

			@Override
			public String getDescription() {
				return "every package of the core, the root split into its facade and its value types";
			}

		}).should().beFreeOfCycles().check(CORE);
	}

	@Test
	void layersDependOnlyDownward() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("Facade")
			.definedBy(FACADE_CLASSES)
			.layer("API")
			.definedBy(API_CLASSES)
			.layer("Engine")
			.definedBy(ENGINE)
			.layer("Parts")
			.definedBy(PART_CLASSES)
			.layer("OS")
			.definedBy(OS)
			.whereLayer("Facade")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("Engine")
			.mayOnlyBeAccessedByLayers("Facade")
			.whereLayer("Parts")
			.mayOnlyBeAccessedByLayers("Facade", "API", "Engine")
			.whereLayer("OS")
			.mayOnlyBeAccessedByLayers("Facade", "Engine", "Parts")
			.because("the API's value types are the vocabulary of every layer; nothing below the facade reaches up")
			.check(CORE);
	}

	@Test
	void theApiReachesNoEngineNorTheNativeLayer() {
		noClasses().that(API_CLASSES)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(ENGINE, OS)
			.because("a value type is checked and built without the engine; only the spec's checks read what this "
					+ "process may give (internal.resources) and the file registry keeps its directory private "
					+ "(internal.files)")
			.check(CORE);
	}

	@Test
	void theRootPackageHoldsTheApiAndItsOwnChecksOnly() {
		classes().that()
			.resideInAPackage(ROOT)
			.and()
			.areTopLevelClasses()
			.and()
			.areNotPublic()
			.should()
			.onlyBeAccessed()
			.byClassesThat(API_CLASSES)
			.because("the root package is the API; what is not public there is a value type's own check")
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
			.doNotBelongToAnyOf(Spawner.class)
			.and()
			.doNotHaveFullyQualifiedName(SPAWN_TASK)
			.and(not(CHILD_PROCESS_AND_ITS_NESTED))
			.should()
			.callMethodWhere(call(Reaper.class, Set.of("signalGroupUnreaped")))
			.check(CORE);
		noClasses().that()
			.doNotBelongToAnyOf(Spawner.class)
			.and()
			.doNotHaveFullyQualifiedName(SPAWN_TASK)
			.and(not(CHILD_PROCESS_AND_ITS_NESTED))
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

	private static JavaClass topLevel(JavaClass type) {
		JavaClass top = type;
		while (top.getEnclosingClass().isPresent()) {
			top = top.getEnclosingClass().get();
		}
		return top;
	}

}
