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

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.store.LockStore;
import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * An application without Redis on the classpath (no {@code lock-redis}, Spring Data Redis
 * or Lettuce), with Spring Boot's own auto-configuration and
 * {@code distlock.store=memory}: it starts, its locked methods lock, and it warns once
 * that its locks hold within one JVM only.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class InMemoryStoreApplicationTests {

	private static final String[] BOOT_AUTO_CONFIGURATIONS = {
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
			"org.springframework.boot.autoconfigure.aop.AopAutoConfiguration" };

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader("dev.distlock.redis", "org.springframework.data.redis", "io.lettuce"))
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(bootAutoConfigurations()))
		.withBean(Jobs.class);

	@Test
	void startsLocksAndWarnsOnceWithDistlockStoreMemory(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.store=memory").run((context) -> {
			assertThat(ClassUtils.isPresent("dev.distlock.redis.RedisLockStore", context.getClassLoader())).isFalse();
			assertThat(ClassUtils.isPresent("org.springframework.data.redis.core.StringRedisTemplate",
					context.getClassLoader()))
				.isFalse();
			assertThat(ClassUtils.isPresent("io.lettuce.core.RedisClient", context.getClassLoader())).isFalse();
			assertThat(context).getBean(LockStore.class).isInstanceOf(InMemoryLockStore.class);
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(AopUtils.isAopProxy(jobs)).isTrue();
			CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> jobs.run("nightly"));
			try {
				assertThat(jobs.awaitEntered()).isTrue();
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> jobs.run("nightly"));
			}
			finally {
				jobs.release();
			}
			await().atMost(Duration.ofSeconds(10)).until(first::isDone);
			assertThat(first.join()).isEqualTo("nightly");
			assertThat(output.getOut().split(Pattern.quote("distlock.store is memory"), -1)).hasSize(2);
		});
	}

	@Test
	void startsLocksAndWarnsOnceWithoutRedisJarsOnTheClassPath(CapturedOutput output) throws Exception {
		NoRedisClasspath classpath = new NoRedisClasspath();
		assertThat(classpath.removed()).anyMatch((name) -> name.startsWith("lock-redis"))
			.anyMatch((name) -> name.startsWith("spring-data-redis"))
			.anyMatch((name) -> name.startsWith("lettuce-core"));
		Map<String, String> outcome = classpath.call(InMemoryStoreApplication.class);
		assertThat(outcome).containsExactly(entry("lock-redis", "absent"), entry("spring-data-redis", "absent"),
				entry("lettuce", "absent"), entry("store", InMemoryLockStore.class.getName()),
				entry("first call entered", "true"), entry("second call", "refused"),
				entry("first call returned", "nightly"));
		assertThat(output.getOut().split(Pattern.quote("distlock.store is memory"), -1)).hasSize(2);
	}

	@Test
	void failsAtStartupWithoutAStoreNamingDistlockStoreAndTheStarter() {
		this.contextRunner.run((context) -> assertThat(context).getFailure()
			.rootCause()
			.hasMessageContaining(Jobs.class.getName())
			.hasMessageContaining("need a LockClient bean, but there is none")
			.hasMessageContaining("distlock.store")
			.hasMessageContaining("lock-spring-boot-starter for Redis (it needs a RedisConnectionFactory")
			.hasMessageContaining("lock-spring-boot-starter-jdbc for a database (it needs a DataSource)")
			.hasMessageContaining("lock-spring-boot-starter-zookeeper for ZooKeeper (it needs a CuratorFramework "
					+ "or distlock.zookeeper.connect-string)"));
	}

	private static Class<?>[] bootAutoConfigurations() {
		return Arrays.stream(BOOT_AUTO_CONFIGURATIONS)
			.filter((name) -> ClassUtils.isPresent(name, null))
			.map((name) -> ClassUtils.resolveClassName(name, null))
			.toArray(Class<?>[]::new);
	}

	public static class Jobs {

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		/**
		 * Run a job under its lock, the first call until the test releases it.
		 * @param name the job
		 * @return the job's name
		 */
		@DistributedLock(key = "'job:' + #name", waitTime = "0s")
		public String run(String name) {
			if (this.entered.getCount() > 0) {
				this.entered.countDown();
				awaitRelease();
			}
			return name;
		}

		/**
		 * Wait until the first call runs.
		 * @return whether it does
		 * @throws InterruptedException if interrupted
		 */
		public boolean awaitEntered() throws InterruptedException {
			return this.entered.await(10, TimeUnit.SECONDS);
		}

		/**
		 * Let the first call return.
		 */
		public void release() {
			this.release.countDown();
		}

		private void awaitRelease() {
			try {
				this.release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
