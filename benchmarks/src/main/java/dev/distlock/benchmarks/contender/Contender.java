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

package dev.distlock.benchmarks.contender;

import java.time.Duration;

import dev.distlock.benchmarks.RedisEndpoint;

/**
 * The libraries a run compares, in table order.
 *
 * @author distlock
 * @since 0.1.0
 */
public enum Contender {

	/**
	 * This project's {@code DefaultLockClient} on a {@code RedisLockStore}.
	 */
	DISTLOCK("distlock", true),

	/**
	 * This project's fair locks: {@code DefaultLockClient.fair()}.
	 */
	DISTLOCK_FAIR("distlock fair", true),

	/**
	 * Redisson 4.7.0 {@code RLock}.
	 */
	REDISSON("Redisson 4.7.0", true),

	/**
	 * Redisson 4.7.0 fair {@code RLock} ({@code getFairLock}).
	 */
	REDISSON_FAIR("Redisson 4.7.0 fair lock", true),

	/**
	 * Spring Integration 7.1.0 {@code RedisLockRegistry}.
	 */
	SPRING_INTEGRATION("Spring Integration 7.1.0", true),

	/**
	 * lock4j 2.2.7 with its {@code RedisTemplate} executor.
	 */
	LOCK4J("lock4j 2.2.7", true),

	/**
	 * Raw Lettuce {@code SET NX PX} plus an {@code EVALSHA} compare-and-delete.
	 */
	FLOOR("floor (Lettuce SET NX PX + EVALSHA)", false),

	/**
	 * The floor polling every 10 ms instead of every millisecond: the "plain SET
	 * NX + 10 ms polling loop", the polling floor of the contended targets. Measured in
	 * the contended workload only (it differs from the floor only while waiting).
	 */
	POLLING_FLOOR("polling floor (floor, 10 ms poll)", false),

	/**
	 * Diagnostic: the floor's commands through Spring Data Redis.
	 */
	TEMPLATE_FLOOR("diagnostic: floor via Spring Data Redis", false);

	private static final Duration LOCK4J_RENEWAL_INTERVAL = Duration.ofSeconds(10);

	private final String label;

	private final boolean renews;

	Contender(String label, boolean renews) {
		this.label = label;
		this.renews = renews;
	}

	/**
	 * Return the name shown in the results.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Return whether the library can renew leases of held locks.
	 * @return whether it renews
	 */
	public boolean renews() {
		return this.renews;
	}

	/**
	 * Return whether the library takes part in the workloads without contention
	 * (uncontended and held locks), where a waiting strategy makes no difference.
	 * @return {@code false} for the polling floor, which only waits differently from the
	 * floor
	 */
	public boolean runsUncontended() {
		return this != POLLING_FLOOR;
	}

	/**
	 * Return how often the library renews held leases.
	 * @param lease the lease it was given
	 * @return a third of the lease; for lock4j, whose renewal mode always uses a 30
	 * second expire, 10 seconds
	 */
	public Duration renewalInterval(Duration lease) {
		return (this == LOCK4J) ? LOCK4J_RENEWAL_INTERVAL : lease.dividedBy(3);
	}

	/**
	 * Connect the library to a Redis.
	 * @param endpoint the Redis
	 * @param lease the watchdog lease, or the fixed lease of libraries that do not renew
	 * by default
	 * @param renew whether to turn on renewal where it is not the library's default
	 * @return the connected contender
	 * @throws Exception if the library cannot be set up
	 */
	public LockContender connect(RedisEndpoint endpoint, Duration lease, boolean renew) throws Exception {
		return switch (this) {
			case DISTLOCK -> new DistlockContender(endpoint, lease, false);
			case DISTLOCK_FAIR -> new DistlockContender(endpoint, lease, true);
			case REDISSON -> new RedissonContender(endpoint, lease, false);
			case REDISSON_FAIR -> new RedissonContender(endpoint, lease, true);
			case SPRING_INTEGRATION -> new SpringIntegrationContender(endpoint, lease, renew);
			case LOCK4J -> new Lock4jContender(endpoint, lease, renew);
			case FLOOR -> new FloorContender(endpoint, lease, FloorContender.POLL_MILLIS);
			case POLLING_FLOOR -> new FloorContender(endpoint, lease, FloorContender.POLLING_FLOOR_POLL_MILLIS);
			case TEMPLATE_FLOOR -> new TemplateFloorContender(endpoint, lease);
		};
	}

}
