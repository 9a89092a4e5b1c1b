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

package dev.distlock.redis;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.distlock.store.LockStore.Subscription;

/**
 * A subscription made once the store knows how releases are published (a Redis 7+ Cluster
 * needs a round trip to tell), without blocking the subscriber meanwhile; closing it
 * first means it is never made, or closed as soon as it is.
 *
 * @author distlock
 * @since 0.1.0
 */
final class DeferredSubscription implements Subscription {

	private static final Subscription CLOSED = () -> {
	};

	private final AtomicReference<Subscription> state = new AtomicReference<>(() -> {
	});

	/**
	 * Make the subscription, unless this one was closed meanwhile.
	 * @param subscribe makes the real subscription
	 */
	void start(Supplier<Subscription> subscribe) {
		Subscription pending = this.state.get();
		if (pending == CLOSED) {
			return;
		}
		Subscription made = subscribe.get();
		if (!this.state.compareAndSet(pending, made)) {
			made.close();
		}
	}

	@Override
	public void close() {
		this.state.getAndSet(CLOSED).close();
	}

}
