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

package dev.distlock.starter.jdbc;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC starter brings no Redis library: its test class path, a superset of what it
 * gives an application (none of its test dependencies brings Redis), holds no Redis
 * artifact and no Redis class loads. The build checks the same on the dependency tree
 * (maven-enforcer-plugin's bannedDependencies, execution {@code no-redis}).
 *
 * @author distlock
 */
class JdbcStarterClasspathTests {

	private static final Pattern REDIS = Pattern
		.compile("(lock-redis|spring-data-redis|spring-boot-starter-data-redis|lettuce-core|jedis|redisson"
				+ "|embedded-redis|distlock-redis-test-harness)([-.].*)?");

	@Test
	void classPathHasNoRedisArtifact() {
		assertThat(artifacts()).isNotEmpty().noneMatch((artifact) -> REDIS.matcher(artifact).matches());
	}

	@Test
	void classPathHasTheJdbcStoreAndTheAutoConfiguration() {
		assertThat(isPresent("dev.distlock.jdbc.JdbcLockStore")).isTrue();
		assertThat(isPresent("dev.distlock.autoconfigure.LockAutoConfiguration")).isTrue();
		assertThat(isPresent("org.aspectj.weaver.Advice")).isTrue();
	}

	@Test
	void noRedisClassLoads() {
		assertThat(
				List.of("dev.distlock.redis.RedisLockStore", "org.springframework.data.redis.core.StringRedisTemplate",
						"io.lettuce.core.RedisClient", "redis.clients.jedis.Jedis"))
			.noneMatch(JdbcStarterClasspathTests::isPresent);
	}

	private static List<String> artifacts() {
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return Arrays.stream(classpath.split(File.pathSeparator))
			.filter((entry) -> !entry.isEmpty())
			.map(File::new)
			.map(JdbcStarterClasspathTests::artifactName)
			.toList();
	}

	private static String artifactName(File entry) {
		if (entry.isDirectory() && entry.getParentFile() != null && "target".equals(entry.getParentFile().getName())) {
			File module = entry.getParentFile().getParentFile();
			return (module != null) ? module.getName() : entry.getName();
		}
		return entry.getName();
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, JdbcStarterClasspathTests.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}
