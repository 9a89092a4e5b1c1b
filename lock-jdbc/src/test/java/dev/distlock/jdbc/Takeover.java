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

package dev.distlock.jdbc;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import dev.distlock.store.LockStore;

import static org.awaitility.Awaitility.await;

/**
 * The other instance of a commit-window race: it takes a lock over the moment the store
 * lets it, then looks at once whether the holder's work was already committed.
 *
 * @author distlock
 */
public final class Takeover {

	private Takeover() {
	}

	/**
	 * Take {@code key} over for {@code owner} as soon as it can be had (within 5 s), then
	 * tell whether the holder's work is committed at that moment.
	 * @param store the other instance's store
	 * @param key the lock key
	 * @param owner the other instance's owner token
	 * @param committed whether the holder's work is visible as committed
	 * @return what {@code committed} said right after the takeover
	 */
	public static boolean takeOverAndSeeCommit(LockStore store, String key, String owner, BooleanSupplier committed) {
		await("the lock taken over").atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(2))
			.pollInSameThread()
			.until(() -> store.tryAcquire(key, owner, Duration.ofSeconds(30)).toCompletableFuture().join().acquired());
		return committed.getAsBoolean();
	}

}
