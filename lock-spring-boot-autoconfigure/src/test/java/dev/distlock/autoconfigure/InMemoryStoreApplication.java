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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.autoconfigure.InMemoryStoreApplicationTests.Jobs;
import dev.distlock.store.LockStore;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * An application with Spring Boot's whole auto-configuration and
 * {@code distlock.store=memory}, run by {@link InMemoryStoreApplicationTests} on a
 * {@link NoRedisClasspath}. {@link #call()} starts it, calls its locked method twice at
 * once and says what happened, in JDK types.
 *
 * @author distlock
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class InMemoryStoreApplication implements Callable<Map<String, String>> {

	@Bean
	Jobs jobs() {
		return new Jobs();
	}

	@Override
	public Map<String, String> call() throws Exception {
		Map<String, String> outcome = new LinkedHashMap<>();
		ClassLoader classLoader = getClass().getClassLoader();
		outcome.put("lock-redis", present("dev.distlock.redis.RedisLockStore", classLoader));
		outcome.put("spring-data-redis",
				present("org.springframework.data.redis.core.StringRedisTemplate", classLoader));
		outcome.put("lettuce", present("io.lettuce.core.RedisClient", classLoader));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(InMemoryStoreApplication.class)
			.web(WebApplicationType.NONE)
			.registerShutdownHook(false)
			.properties("distlock.store=memory")
			.run()) {
			outcome.put("store", context.getBean(LockStore.class).getClass().getName());
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> jobs.run("nightly"));
			try {
				outcome.put("first call entered", String.valueOf(jobs.awaitEntered()));
				outcome.put("second call", secondCall(jobs));
			}
			finally {
				jobs.release();
			}
			outcome.put("first call returned", first.get(10, TimeUnit.SECONDS));
		}
		return outcome;
	}

	private static String secondCall(Jobs jobs) {
		try {
			return "ran: " + jobs.run("nightly");
		}
		catch (LockAcquisitionException ex) {
			return "refused";
		}
	}

	private static String present(String className, ClassLoader classLoader) {
		return ClassUtils.isPresent(className, classLoader) ? "present" : "absent";
	}

}
