package dev.tether.supervisor.boot;

import java.beans.PropertyEditorSupport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.propertyeditors.PathEditor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The {@code supervisor.*} keys of the environment, read in one pass over its sources and
 * cut into one slice per child (the keys under {@code supervisor.children.<name>}) and
 * one for the rest, each with a {@link Binder} of its own.
 * <p>
 * Why: a {@code Binder} over the whole environment looks every candidate setting of every
 * child up in every source (the settings of 1,000 children took seconds); a binder over a
 * child's slice looks up among that child's few keys. Each slice keeps the sources' order
 * and each key's source, value and origin, so precedence, relaxed names, placeholders,
 * conversion and error messages are the binder's as before. Sources that cannot list
 * their keys are in every slice, as they were in every lookup.
 */
final class SupervisorPropertySlices {

	private static final ConfigurationPropertyName SUPERVISOR = ConfigurationPropertyName.of("supervisor");

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	/** {@code supervisor.children.<name>.<setting>}: a child's key has more elements. */
	private static final int CHILD_ELEMENTS = 3;

	private final Environment environment;

	private final List<ConfigurationPropertySource> unlisted = new ArrayList<>();

	private final List<List<ConfigurationPropertyName>> rest = new ArrayList<>();

	private final List<ConfigurationPropertySource> listed = new ArrayList<>();

	private final Map<String, List<List<ConfigurationPropertyName>>> children = new LinkedHashMap<>();

	/** Whether a source that cannot list its keys may hold some of a child's. */
	private final boolean childrenUnlisted;

	SupervisorPropertySlices(Environment environment) {
		this.environment = environment;
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				read(iterable);
			}
			else {
				this.unlisted.add(source);
			}
		}
		this.childrenUnlisted = mayBeUnlisted(CHILDREN);
	}

	private void read(IterableConfigurationPropertySource source) {
		int index = this.listed.size();
		this.listed.add(source);
		this.rest.add(new ArrayList<>());
		source.stream().filter(SUPERVISOR::isAncestorOf).forEach((name) -> {
			if (isChildKey(name)) {
				List<List<ConfigurationPropertyName>> child = this.children
					.computeIfAbsent(name.getElement(2, Form.ORIGINAL), (key) -> new ArrayList<>());
				while (child.size() <= index) {
					child.add(new ArrayList<>());
				}
				child.get(index).add(name);
			}
			else {
				this.rest.get(index).add(name);
			}
		});
	}

	private static boolean isChildKey(ConfigurationPropertyName name) {
		return CHILDREN.isAncestorOf(name) && name.getNumberOfElements() > CHILD_ELEMENTS;
	}

	/** A binder of the keys of {@code supervisor.*} that are no child's. */
	Binder rest() {
		List<ConfigurationPropertySource> sources = new ArrayList<>(this.listed.size() + this.unlisted.size());
		for (int i = 0; i < this.listed.size(); i++) {
			if (!this.rest.get(i).isEmpty()) {
				sources.add(new Slice(this.listed.get(i), this.rest.get(i), false));
			}
		}
		sources.addAll(this.unlisted);
		return binder(sources);
	}

	/**
	 * Whether any source may hold {@code name} or a key under it, among the keys that are
	 * no child's.
	 */
	boolean restMayHold(ConfigurationPropertyName name) {
		return mayBeUnlisted(name) || this.rest.stream()
			.flatMap(List::stream)
			.anyMatch((key) -> name.equals(key) || name.isAncestorOf(key));
	}

	private boolean mayBeUnlisted(ConfigurationPropertyName name) {
		return this.unlisted.stream()
			.anyMatch((source) -> source.containsDescendantOf(name) != ConfigurationPropertyState.ABSENT);
	}

	/**
	 * Calls {@code action} for each child named under {@code supervisor.children}, in the
	 * order of the sources (one that only a module's settings name is a child to them
	 * too), with a binder of that child's keys and the settings they name. The binder is
	 * the same for every child, showing each child's keys during its call only, so it
	 * must not be kept.
	 * <p>
	 * Why one binder: a {@code Binder} caches what it learns of a properties class (its
	 * JavaBean properties, their types and annotations); a binder per child learned
	 * {@link ChildProperties} and every group of it again for each child, reflection that
	 * was most of the binding of 1,000 children, and enough of it to keep the JIT
	 * compiling Spring's reflection code through the start.
	 */
	void forEachChild(ChildAction action) {
		List<Slice> slices = new ArrayList<>(this.listed.size());
		List<ConfigurationPropertySource> sources = new ArrayList<>(this.listed.size() + this.unlisted.size());
		for (ConfigurationPropertySource source : this.listed) {
			Slice slice = new Slice(source, List.of(), true);
			slices.add(slice);
			sources.add(slice);
		}
		sources.addAll(this.unlisted);
		Binder binder = binder(sources);
		this.children.forEach((name, names) -> {
			for (int i = 0; i < slices.size(); i++) {
				slices.get(i).names = (i < names.size()) ? names.get(i) : List.of();
			}
			action.accept(name, binder, settings(names));
		});
	}

	/**
	 * The settings a child's keys name (the element after the child's name, in uniform
	 * form); {@code null} when some of its keys may not be listed as the binder asks for
	 * them: a source that cannot list its keys may hold some, or the system environment
	 * lists some (it lists {@code WORKING_DIRECTORY} as {@code working.directory}, and
	 * answers for {@code working-directory}).
	 */
	private @Nullable Set<String> settings(List<List<ConfigurationPropertyName>> names) {
		if (this.childrenUnlisted) {
			return null;
		}
		Set<String> settings = new HashSet<>();
		for (int i = 0; i < names.size(); i++) {
			if (!names.get(i).isEmpty()
					&& this.listed.get(i).getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
				return null;
			}
			names.get(i).forEach((name) -> settings.add(name.getElement(CHILD_ELEMENTS, Form.UNIFORM)));
		}
		return settings;
	}

	private Binder binder(List<ConfigurationPropertySource> sources) {
		return new Binder(sources, new PropertySourcesPlaceholdersResolver(this.environment), null,
				(editors) -> editors.registerCustomEditor(Path.class, new AbsolutePathEditor()));
	}

	/** What {@link #forEachChild} does with each child. */
	@FunctionalInterface
	interface ChildAction {

		/**
		 * Called with a child's name, a binder of its keys, and the settings they name
		 * ({@code null} where they cannot all be known by listing them), in a set of the
		 * action's own to change.
		 */
		void accept(String name, Binder binder, @Nullable Set<String> settings);

	}

	/**
	 * An absolute path as it is written; any other through Spring's {@link PathEditor}.
	 * <p>
	 * Why: {@code PathEditor} looks every path up as a class path resource first (each
	 * jar of the class path searched, a fifth of the binding of 1,000 children with a
	 * {@code working-directory}), and takes an absolute path that names a file in a class
	 * path directory for that file.
	 */
	private static final class AbsolutePathEditor extends PropertyEditorSupport {

		@Override
		public void setAsText(String text) {
			if (text.startsWith("/")) {
				setValue(Path.of(text).normalize());
				return;
			}
			PathEditor editor = new PathEditor();
			editor.setAsText(text);
			setValue(editor.getValue());
		}

	}

	/**
	 * Some keys of a source, looked up in the source itself. Why not a set of the keys: a
	 * source's lookup knows its own relaxed spellings (an environment variable lists as
	 * {@code working.directory} what the binder asks as {@code working-directory}).
	 */
	private static final class Slice implements IterableConfigurationPropertySource {

		private final ConfigurationPropertySource source;

		// Why not final: the children's slices show one child after another (see
		// forEachChild).
		private List<ConfigurationPropertyName> names;

		private final boolean ofAChild;

		Slice(ConfigurationPropertySource source, List<ConfigurationPropertyName> names, boolean ofAChild) {
			this.source = source;
			this.names = names;
			this.ofAChild = ofAChild;
		}

		@Override
		public @Nullable ConfigurationProperty getConfigurationProperty(ConfigurationPropertyName name) {
			// Why: a child's binder is only asked under that child; the rest's must not
			// see any child's keys. A source that lists none of the child's keys has none
			// to give.
			if (this.names.isEmpty() || (!this.ofAChild && isChildKey(name))) {
				return null;
			}
			return this.source.getConfigurationProperty(name);
		}

		@Override
		public Stream<ConfigurationPropertyName> stream() {
			return this.names.stream();
		}

		// Why the source's: the check of unknown keys skips the environment's and the
		// system properties' keys by their source.
		@Override
		public @Nullable Object getUnderlyingSource() {
			return this.source.getUnderlyingSource();
		}

	}

}
