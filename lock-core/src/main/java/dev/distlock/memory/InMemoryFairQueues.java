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

package dev.distlock.memory;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.distlock.store.FairQueueLimits;
import org.jspecify.annotations.Nullable;

/**
 * The fair queues of an {@link InMemoryLockStore}: per key, the waiters in arrival order
 * with their grant time and alive deadline, the bounded dropping of gone waiters from the
 * head ({@link FairQueueLimits}) and the choice of the first live waiter a free lock is
 * handed off to.
 * <p>
 * Not thread-safe: the store calls it under its monitor only.
 *
 * @author distlock
 * @since 0.1.0
 */
final class InMemoryFairQueues {

	/**
	 * The fair queues: waiter token to its grant time, in arrival order.
	 */
	private final Map<String, LinkedHashMap<String, Duration>> queues = new HashMap<>();

	/**
	 * The alive deadlines of the queued waiters.
	 */
	private final Map<String, Map<String, Long>> alive = new HashMap<>();

	/**
	 * Return whether no fair waiter is queued for {@code key}, alive or gone.
	 */
	boolean isEmpty(String key) {
		LinkedHashMap<String, Duration> queue = this.queues.get(key);
		return queue == null || queue.isEmpty();
	}

	/**
	 * Return whether it is the turn of a writer with {@code token} to take the free lock
	 * on {@code key}: dropping at most {@code budget} gone waiters from the head of the
	 * queue, it is when the queue is empty or {@code token} is at its head (it then
	 * leaves the queue). Otherwise the admission carries the budget left for the
	 * hand-off.
	 */
	Admission admit(String key, String token, int budget) {
		int dropped = 0;
		while (dropped < budget) {
			String head = head(key);
			if (head == null) {
				return new Admission(true, budget - dropped);
			}
			if (head.equals(token)) {
				leave(key, token);
				return new Admission(true, budget - dropped);
			}
			if (isAlive(key, head)) {
				break;
			}
			leave(key, head);
			dropped++;
		}
		return new Admission(false, budget - dropped);
	}

	/**
	 * Queue {@code token} at the tail of {@code key}'s queue with {@code grantTimeout} as
	 * its grant time and alive for {@code grantTimeout} from now, or, if it is queued
	 * already, keep its place and only renew its alive deadline.
	 */
	void join(String key, String token, Duration grantTimeout) {
		Map<String, Long> living = this.alive.computeIfAbsent(key, (name) -> new HashMap<>());
		if (living.put(token, System.nanoTime() + grantTimeout.toNanos()) == null) {
			this.queues.computeIfAbsent(key, (name) -> new LinkedHashMap<>()).put(token, grantTimeout);
		}
	}

	/**
	 * Drop a fair waiter from the queue and the alive marks of {@code key}.
	 */
	void leave(String key, String waiter) {
		LinkedHashMap<String, Duration> queue = this.queues.get(key);
		if (queue != null) {
			queue.remove(waiter);
		}
		Map<String, Long> living = this.alive.get(key);
		if (living != null) {
			living.remove(waiter);
		}
	}

	/**
	 * Remove and return the first live waiter of {@code key}'s queue, dropping at most
	 * {@code budget} gone waiters from its head, or {@code null} if the queue has no live
	 * waiter within that budget.
	 */
	@Nullable Waiter pollLive(String key, int budget) {
		LinkedHashMap<String, Duration> queue = this.queues.getOrDefault(key, new LinkedHashMap<>());
		int dropped = 0;
		while (!queue.isEmpty()) {
			Map.Entry<String, Duration> head = queue.entrySet().iterator().next();
			String waiter = head.getKey();
			Duration grantTimeout = head.getValue();
			if (isAlive(key, waiter)) {
				leave(key, waiter);
				return new Waiter(waiter, grantTimeout);
			}
			if (dropped >= budget) {
				break;
			}
			leave(key, waiter);
			dropped++;
		}
		return null;
	}

	private @Nullable String head(String key) {
		LinkedHashMap<String, Duration> queue = this.queues.get(key);
		return (queue == null || queue.isEmpty()) ? null : queue.keySet().iterator().next();
	}

	private boolean isAlive(String key, String waiter) {
		Map<String, Long> living = this.alive.get(key);
		Long deadline = (living != null) ? living.get(waiter) : null;
		return deadline != null && deadline - System.nanoTime() >= 0;
	}

	/**
	 * Whether a writer may take a free lock now, and how many gone waiters the rest of
	 * the step may still drop.
	 */
	record Admission(boolean admitted, int budgetLeft) {

	}

	/**
	 * A live waiter taken from the head of a queue, with the grant time it asked for.
	 */
	record Waiter(String token, Duration grantTimeout) {

	}

}
