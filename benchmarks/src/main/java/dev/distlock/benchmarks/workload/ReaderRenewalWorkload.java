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

package dev.distlock.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.distlock.benchmarks.RedisAdmin;
import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.redis.RedisLockStore;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Renewal of many read locks of one key held by many readers: the Redis time one renewal
 * batch costs, from the {@code usec} of {@code INFO commandstats} for the scripts (which
 * includes the commands they run), so that it does not depend on the client or the
 * network.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReaderRenewalWorkload {

	private static final Duration LEASE = Duration.ofMinutes(5);

	private final int readers;

	private final int batch;

	private final int batches;

	/**
	 * Create the workload.
	 * @param readers how many readers hold the key
	 * @param batch how many of them one renewal batch renews
	 * @param batches how many batches to measure
	 */
	public ReaderRenewalWorkload(int readers, int batch, int batches) {
		this.readers = readers;
		this.batch = batch;
		this.batches = batches;
	}

	/**
	 * Take the read locks, renew them in batches and measure.
	 * @param endpoint the Redis to use
	 * @param admin its admin connection
	 * @return the Redis microseconds per batch
	 */
	public ReaderRenewalResult run(RedisEndpoint endpoint, RedisAdmin admin) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()));
		factory.afterPropertiesSet();
		factory.start();
		RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory));
		try {
			String key = "reader-renewal";
			List<CompletableFuture<?>> grants = new ArrayList<>(this.readers);
			for (int i = 0; i < this.readers; i++) {
				grants.add(store.tryAcquireRead(key, "reader-" + i, LEASE).toCompletableFuture());
			}
			CompletableFuture.allOf(grants.toArray(CompletableFuture[]::new)).join();
			List<Renewal> renewals = IntStream.range(0, this.batch)
				.mapToObj((i) -> new Renewal(key, "reader-" + i))
				.toList();
			store.renew(renewals, LEASE).toCompletableFuture().join();
			long before = admin.scriptMicros();
			for (int i = 0; i < this.batches; i++) {
				store.renew(renewals, LEASE).toCompletableFuture().join();
			}
			long micros = admin.scriptMicros() - before;
			return new ReaderRenewalResult(this.readers, this.batch, micros / (double) this.batches);
		}
		finally {
			store.close();
			factory.destroy();
		}
	}

	/**
	 * What {@link ReaderRenewalWorkload} measured.
	 *
	 * @param readers how many readers held the key
	 * @param batch how many read locks one batch renewed
	 * @param redisMicrosPerBatch Redis time per batch, in microseconds
	 */
	public record ReaderRenewalResult(int readers, int batch, double redisMicrosPerBatch) {

	}

}
