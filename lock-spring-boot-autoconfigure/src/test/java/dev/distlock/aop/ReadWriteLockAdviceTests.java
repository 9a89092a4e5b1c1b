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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @DistributedLock(mode = READ)}: readers of a key run together, never with a
 * writer of the key in another instance, on the synchronous, {@code CompletableFuture}
 * and reactive paths and with several keys; nested calls re-enter like a
 * {@code ReentrantReadWriteLock}, and a read method calling a write method of its key
 * fails instead of waiting for itself.
 *
 * @author distlock
 */
class ReadWriteLockAdviceTests extends RedisAdviceTestSupport {

	@Test
	void readMethodsRunTogetherAcrossThreads() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			CountDownLatch together = new CountDownLatch(2);
			ExecutorService pool = Executors.newFixedThreadPool(2);
			try {
				Future<Boolean> first = pool.submit(() -> catalog.readTogether("a", together));
				Future<Boolean> second = pool.submit(() -> catalog.readTogether("a", together));
				assertThat(first.get(30, TimeUnit.SECONDS)).isTrue();
				assertThat(second.get(30, TimeUnit.SECONDS)).isTrue();
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void aReadMethodExcludesWritersOfItsKeyButNotReaders() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			DefaultLockClient other = otherInstance();
			assertThat(catalog.read("b", () -> {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> other.acquire("item:b", Duration.ZERO, null));
				other.readLocks().acquire("item:b", Duration.ZERO, null).release();
				return "read";
			})).isEqualTo("read");
			try (LockHold writer = other.acquire("item:b", Duration.ZERO, null)) {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> catalog.read("b", () -> "never"));
				assertThat(writer.isValid()).isTrue();
			}
		});
	}

	@Test
	void nestedCallsReenterLikeAReentrantReadWriteLockAndAReadNeverUpgrades() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			DefaultLockClient other = otherInstance();
			assertThat(catalog.write("c", () -> catalog.read("c", () -> {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> other.readLocks().acquire("item:c", Duration.ZERO, null));
				return catalog.write("c", () -> "write-read-write");
			}))).isEqualTo("write-read-write");
			assertThat(catalog.read("c", () -> catalog.read("c", () -> "read-read"))).isEqualTo("read-read");
			assertThatIllegalStateException().isThrownBy(() -> catalog.read("c", () -> catalog.write("c", () -> "x")))
				.withMessageContaining("item:c")
				.withMessageContaining("cannot be upgraded");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	@Test
	void aReadFutureHoldsItsReadLockUntilItCompletes() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			DefaultLockClient other = otherInstance();
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletableFuture<String> read = catalog.readLater("d", pending);
			awaitLocked("item:d");
			other.readLocks().acquire("item:d", Duration.ZERO, null).release();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> other.acquire("item:d", Duration.ZERO, null));
			pending.complete("done");
			assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			other.acquire("item:d", Duration.ofSeconds(10), null).release();
		});
	}

	@Test
	void aReadMonoHoldsItsReadLockWhileItRuns() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			DefaultLockClient other = otherInstance();
			Sinks.One<String> pending = Sinks.one();
			CompletableFuture<String> read = catalog.readMono("e", pending.asMono()).toFuture();
			awaitLocked("item:e");
			other.readLocks().acquire("item:e", Duration.ZERO, null).release();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> other.acquire("item:e", Duration.ZERO, null));
			pending.tryEmitValue("done");
			assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			other.acquire("item:e", Duration.ofSeconds(10), null).release();
		});
	}

	@Test
	void severalKeysAreAllReadLocked() {
		this.contextRunner().withUserConfiguration(CatalogConfiguration.class).run((context) -> {
			Catalog catalog = context.getBean(Catalog.class);
			DefaultLockClient other = otherInstance();
			assertThat(catalog.readAll(List.of("f", "g"), () -> {
				for (String key : List.of("item:f", "item:g")) {
					other.readLocks().acquire(key, Duration.ZERO, null).release();
					assertThatExceptionOfType(LockAcquisitionException.class)
						.isThrownBy(() -> other.acquire(key, Duration.ZERO, null));
				}
				return "both";
			})).isEqualTo("both");
			assertThat(lockedKeys()).isEmpty();
		});
	}

	private void awaitLocked(String key) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!lockedKeys().contains(key) && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(lockedKeys()).contains(key);
	}

	@Configuration(proxyBeanMethods = false)
	static class CatalogConfiguration {

		@Bean
		Catalog catalog() {
			return new Catalog();
		}

	}

	/**
	 * Work that runs under a lock and may throw.
	 */
	@FunctionalInterface
	interface Work {

		String run() throws Exception;

	}

	/**
	 * Read and write methods of items.
	 */
	static class Catalog {

		@DistributedLock(key = "'item:' + #id", mode = LockMode.READ)
		public boolean readTogether(String id, CountDownLatch together) throws InterruptedException {
			together.countDown();
			return together.await(10, TimeUnit.SECONDS);
		}

		@DistributedLock(key = "'item:' + #id", mode = LockMode.READ)
		public String read(String id, Work work) throws Exception {
			return work.run();
		}

		@DistributedLock(key = "'item:' + #id", mode = LockMode.WRITE)
		public String write(String id, Work work) throws Exception {
			return work.run();
		}

		@DistributedLock(key = "'item:' + #id", mode = LockMode.READ, waitTime = "0")
		public CompletableFuture<String> readLater(String id, CompletableFuture<String> work) {
			return work;
		}

		@DistributedLock(key = "'item:' + #id", mode = LockMode.READ, waitTime = "0")
		public Mono<String> readMono(String id, Mono<String> work) {
			return work;
		}

		@DistributedLock(key = "#ids.![ 'item:' + #this ]", mode = LockMode.READ)
		public String readAll(List<String> ids, Work work) throws Exception {
			return work.run();
		}

	}

}
