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

package dev.distlock.benchmarks.loss;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;

/**
 * A store whose renewals fail at once while it is {@linkplain #setDown(boolean) down}, as
 * a store that refuses connections would: the outage of the benchmark, on any store.
 *
 * @author distlock
 * @since 0.1.0
 */
final class OutageLockStore extends ForwardingLockStore {

	private volatile boolean down;

	OutageLockStore(LockStore delegate) {
		super(delegate);
	}

	void setDown(boolean down) {
		this.down = down;
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		if (this.down) {
			return CompletableFuture.failedFuture(new LockBackendException(renewals.get(0).key(), "renew",
					new IllegalStateException("the benchmark's store outage")));
		}
		return super.renew(renewals, lease);
	}

	/**
	 * Leave the store open: the benchmark's target closes it.
	 */
	@Override
	public void close() {
	}

}
