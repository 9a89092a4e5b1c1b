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

package dev.distlock.autoconfigure;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * The test class path without Redis: no {@code lock-redis}, Spring Data Redis, Lettuce,
 * Jedis or Redis test harness, as an application that depends on
 * {@code lock-spring-boot-autoconfigure} and {@code lock-core} only has it. Code run
 * {@link #call(Class) in it} finds none of their classes, also not through classes that
 * were already loaded (unlike a filtering class loader, which only hides classes loaded
 * by name through it).
 *
 * @author distlock
 */
final class NoRedisClasspath {

	private static final Pattern REDIS = Pattern
		.compile("(lock-redis|spring-data-redis|lettuce-core|jedis|redis-test-harness|distlock-redis-test-harness"
				+ "|embedded-redis)([-.].*)?");

	private final List<URL> kept = new ArrayList<>();

	private final List<String> removed = new ArrayList<>();

	NoRedisClasspath() throws MalformedURLException {
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		for (String entry : classpath.split(File.pathSeparator)) {
			if (entry.isEmpty()) {
				continue;
			}
			File file = new File(entry);
			if (REDIS.matcher(artifactName(file)).matches()) {
				this.removed.add(artifactName(file));
			}
			else {
				this.kept.add(file.toURI().toURL());
			}
		}
	}

	/**
	 * Return the names of the artifacts left out: jar names, or module names of class
	 * directories.
	 * @return the artifacts left out
	 */
	List<String> removed() {
		return this.removed;
	}

	/**
	 * Return what a {@link Callable} of the test sources returns when loaded and called
	 * in a class loader of this class path alone (with the platform class loader as
	 * parent), which is also the thread's context class loader meanwhile.
	 * @param <T> a JDK type, the same in both class loaders
	 * @param callable the callable's class, with a public no-argument constructor
	 * @return what it returned
	 * @throws Exception what it threw
	 */
	@SuppressWarnings("unchecked")
	<T> T call(Class<? extends Callable<T>> callable) throws Exception {
		try (URLClassLoader loader = new URLClassLoader(this.kept.toArray(URL[]::new),
				ClassLoader.getPlatformClassLoader())) {
			Thread thread = Thread.currentThread();
			ClassLoader previous = thread.getContextClassLoader();
			thread.setContextClassLoader(loader);
			try {
				Class<?> isolated = loader.loadClass(callable.getName());
				return ((Callable<T>) isolated.getConstructor().newInstance()).call();
			}
			finally {
				thread.setContextClassLoader(previous);
			}
		}
	}

	/**
	 * Return the artifact of a class path entry: {@code lettuce-core-6.6.0.jar}, or
	 * {@code lock-redis} for {@code lock-redis/target/classes}.
	 */
	private static String artifactName(File entry) {
		if (entry.isDirectory() && entry.getParentFile() != null && "target".equals(entry.getParentFile().getName())) {
			File module = entry.getParentFile().getParentFile();
			return (module != null) ? module.getName() : entry.getName();
		}
		return entry.getName();
	}

}
