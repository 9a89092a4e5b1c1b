/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package dev.distlock.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Java types of a source tree, read from the text of every {@code .java} file under a
 * {@code src/main/java} or {@code src/test/java} directory of any module: for each type
 * its package, the names it declares (methods, annotation attributes, fields, record
 * components, enum constants and nested types) and the types it extends or implements. It
 * reads text, not the class path, so it does not depend on which module holds a class.
 *
 * @author distlock
 */
final class SourceIndex {

	private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

	private static final Pattern TYPE = Pattern
		.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)([^{]*)\\{");

	private static final Pattern METHOD = Pattern.compile("^\\s*(?:@[\\w.]+(?:\\([^)]*\\))?\\s+)*"
			+ "(?:(?:public|protected|private|static|final|default|abstract|synchronized|native)\\s+)*"
			+ "(?:<[^>]*>\\s+)?[\\w.<>\\[\\]?, @]+?\\s+(\\w+)\\s*\\(", Pattern.MULTILINE);

	private static final Pattern FIELD = Pattern.compile(
			"^\\s*(?:(?:public|protected|private|static|final|volatile|transient)\\s+)+[\\w.<>\\[\\]?, @]+?\\s+(\\w+)\\s*[=;]",
			Pattern.MULTILINE);

	private static final Pattern CONSTANT = Pattern.compile("^\\s*([A-Z][A-Z0-9_]*)\\s*[,;(]?\\s*(?://.*)?$",
			Pattern.MULTILINE);

	private static final Pattern RECORD = Pattern.compile("\\brecord\\s+\\w+\\s*(?:<[^>]*>)?\\s*\\(([^)]*)\\)");

	private static final Pattern COMPONENT = Pattern.compile("(\\w+)\\s*(?:,|$)");

	/**
	 * Comments and text blocks, whose text may look like declarations (a test's sample
	 * source, a Javadoc example) without declaring anything.
	 */
	private static final Pattern NOT_CODE = Pattern.compile("/\\*[\\s\\S]*?\\*/|\"\"\"[\\s\\S]*?\"\"\"");

	private static final Pattern SUPERTYPE = Pattern.compile("\\b([A-Z]\\w*)\\b");

	private final Map<String, Set<String>> qualifiedNames = new HashMap<>();

	private final Map<String, Set<String>> members = new HashMap<>();

	private final Map<String, Set<String>> supertypes = new HashMap<>();

	private final Set<String> allMembers = new LinkedHashSet<>();

	/**
	 * Index every Java source file of the repository's modules.
	 * @param root the repository root
	 * @return the index
	 */
	static SourceIndex of(Path root) {
		SourceIndex index = new SourceIndex();
		try (Stream<Path> files = Files.walk(root)) {
			files.filter((file) -> file.toString().endsWith(".java")).filter((file) -> {
				String path = root.relativize(file).toString().replace('\\', '/');
				return (path.contains("/src/main/java/") || path.contains("/src/test/java/"))
						&& !path.contains("/target/");
			}).forEach((file) -> index.add(read(file)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return index;
	}

	/**
	 * Add the types of one source file.
	 * @param source the file's text
	 */
	void add(String text) {
		String source = NOT_CODE.matcher(text).replaceAll(" ");
		Matcher pkg = PACKAGE.matcher(source);
		String packageName = pkg.find() ? pkg.group(1) : "";
		Set<String> declared = new LinkedHashSet<>();
		collect(METHOD, source, declared);
		collect(FIELD, source, declared);
		collect(CONSTANT, source, declared);
		Matcher record = RECORD.matcher(source);
		while (record.find()) {
			Matcher component = COMPONENT.matcher(record.group(1).strip());
			while (component.find()) {
				declared.add(component.group(1));
			}
		}
		Matcher type = TYPE.matcher(source);
		List<String> names = new ArrayList<>();
		while (type.find()) {
			String name = type.group(1);
			names.add(name);
			this.qualifiedNames.computeIfAbsent(name, (key) -> new LinkedHashSet<>()).add(packageName + "." + name);
			Set<String> parents = this.supertypes.computeIfAbsent(name, (key) -> new LinkedHashSet<>());
			String header = type.group(2);
			int extendsAt = header.indexOf("extends");
			int implementsAt = header.indexOf("implements");
			int from = (extendsAt >= 0) ? extendsAt : implementsAt;
			if (from >= 0) {
				Matcher supertype = SUPERTYPE.matcher(header.substring(from));
				while (supertype.find()) {
					parents.add(supertype.group(1));
				}
			}
		}
		// Every type of a file shares the file's names: nested types are small, and a
		// name of an outer class is reachable from its nested ones.
		for (String name : names) {
			this.members.computeIfAbsent(name, (key) -> new LinkedHashSet<>()).addAll(declared);
			this.members.get(name).addAll(names);
		}
		this.allMembers.addAll(declared);
	}

	private static void collect(Pattern pattern, String source, Set<String> into) {
		Matcher matcher = pattern.matcher(source);
		while (matcher.find()) {
			into.add(matcher.group(1));
		}
	}

	/**
	 * Return whether a type of this simple name exists, and, when {@code qualifier} is
	 * not empty, whether one's package ends with it ({@code aop} for
	 * {@code dev.distlock.aop}) or equals it.
	 * @param qualifier the package or its last segments, or empty
	 * @param simpleName the simple name
	 * @return whether the type exists
	 */
	boolean hasType(String qualifier, String simpleName) {
		Set<String> names = this.qualifiedNames.get(simpleName);
		if (names == null) {
			return false;
		}
		if (qualifier.isEmpty()) {
			return true;
		}
		String suffix = qualifier + "." + simpleName;
		return names.stream().anyMatch((name) -> name.equals(suffix) || name.endsWith("." + suffix));
	}

	/**
	 * Return whether the type, or one of its supertypes in this index, declares the name.
	 * @param type the type's simple name
	 * @param member the name of a method, attribute, field, constant or nested type
	 * @return whether it is declared
	 */
	boolean hasMember(String type, String member) {
		return hasMember(type, member, new LinkedHashSet<>());
	}

	private boolean hasMember(String type, String member, Set<String> seen) {
		if (!seen.add(type)) {
			return false;
		}
		if (this.members.getOrDefault(type, Set.of()).contains(member)) {
			return true;
		}
		for (String parent : this.supertypes.getOrDefault(type, Set.of())) {
			if (hasMember(parent, member, seen)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Return whether any type of the index declares the name.
	 * @param member the name
	 * @return whether some type declares it
	 */
	boolean declaresAnywhere(String member) {
		return this.allMembers.contains(member);
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
