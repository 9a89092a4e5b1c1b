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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

/**
 * An application as a quick start of the README builds it: distlock's and Spring Boot's
 * auto-configuration (Redis, {@code DataSource} and AOP, loaded by name for Spring Boot
 * 3.5 and 4.x), the README's {@link QuickStartOrders}, and the README's properties.
 *
 * @author distlock
 */
final class QuickStartApplication {

	/**
	 * Spring Boot's Redis auto-configuration, for Spring Boot 4.x and 3.5.
	 */
	static final List<String> REDIS = List.of(
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration");

	/**
	 * Spring Boot's {@code DataSource} auto-configuration, for Spring Boot 4.x and 3.5.
	 */
	static final List<String> DATA_SOURCE = List.of(
			"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
			"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration");

	private static final List<String> STORE_PACKAGES = List.of("dev.distlock.redis", "dev.distlock.jdbc",
			"dev.distlock.zookeeper");

	private static final String AOP = "org.springframework.boot.autoconfigure.aop.AopAutoConfiguration";

	private QuickStartApplication() {
	}

	/**
	 * Return a runner of the application with one store's starter: the README's
	 * properties, where {@code environment} replaces only what differs on the test's
	 * machine (where the server listens, a table of its own). The other stores' modules
	 * are hidden, as an application with one starter does not have them.
	 * @param store the package of the store's module ({@code dev.distlock.jdbc})
	 * @param bootAutoConfigurations the Spring Boot auto-configuration of the starter's
	 * connection, by name
	 * @param readme the README's properties
	 * @param environment the properties the test's machine needs instead
	 * @return the runner
	 */
	static ApplicationContextRunner runner(String store, List<String> bootAutoConfigurations,
			Map<String, String> readme, Map<String, String> environment) {
		Map<String, String> properties = new LinkedHashMap<>(readme);
		properties.putAll(environment);
		List<String> boot = new ArrayList<>(bootAutoConfigurations);
		boot.add(AOP);
		return new ApplicationContextRunner()
			.withClassLoader(new FilteredClassLoader(
					STORE_PACKAGES.stream().filter((other) -> !other.equals(store)).toArray(String[]::new)))
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
			.withConfiguration(AutoConfigurations.of(present(boot)))
			.withBean(QuickStartOrders.class)
			.withPropertyValues(properties.entrySet()
				.stream()
				.map((property) -> property.getKey() + "=" + property.getValue())
				.toArray(String[]::new));
	}

	private static Class<?>[] present(List<String> names) {
		return names.stream()
			.filter((name) -> ClassUtils.isPresent(name, null))
			.map((name) -> ClassUtils.resolveClassName(name, null))
			.toArray(Class<?>[]::new);
	}

}
