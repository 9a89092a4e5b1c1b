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

package dev.distlock.testing.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Finds a {@code redis-server} executable: on the {@code PATH}, or the one shipped inside
 * {@code com.github.codemonstur:embedded-redis}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisBinaries {

	private static @Nullable Path embedded;

	private static boolean extracted;

	private RedisBinaries() {
	}

	/**
	 * Return {@code redis-server} from the {@code PATH}, if there is one.
	 * @return the executable
	 */
	static Optional<Path> onPath() {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		return Stream.of(path.split(File.pathSeparator))
			.map((directory) -> Path.of(directory, "redis-server"))
			.filter(Files::isExecutable)
			.findFirst();
	}

	/**
	 * Return the executable shipped in the embedded-redis jar for this platform, if the
	 * jar is on the classpath and has one. It is copied to a temporary file once per JVM.
	 * @return the executable
	 */
	static synchronized Optional<Path> embedded() {
		if (!extracted) {
			embedded = extractEmbedded();
			extracted = true;
		}
		return Optional.ofNullable(embedded);
	}

	private static @Nullable Path extractEmbedded() {
		String resource = embeddedResourceName();
		if (resource == null) {
			return null;
		}
		try (InputStream binary = RedisBinaries.class.getClassLoader().getResourceAsStream(resource)) {
			if (binary == null) {
				return null;
			}
			Path copy = Files.createTempFile("distlock-" + resource, "");
			copy.toFile().deleteOnExit();
			Files.copy(binary, copy, StandardCopyOption.REPLACE_EXISTING);
			if (!copy.toFile().setExecutable(true)) {
				throw new IllegalStateException("Could not make " + copy + " executable");
			}
			return copy;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not extract the embedded Redis binary " + resource, ex);
		}
	}

	private static @Nullable String embeddedResourceName() {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		boolean arm = System.getProperty("os.arch").contains("aarch64")
				|| System.getProperty("os.arch").contains("arm");
		if (os.contains("linux")) {
			return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
		}
		if (os.contains("mac")) {
			return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
		}
		return null;
	}

}
