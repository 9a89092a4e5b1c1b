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

package dev.distlock.core;

import java.util.concurrent.TimeUnit;

import dev.distlock.store.LockStore.FairGrant;

/**
 * One reading of a store's clock: a request sent at {@code sentAtNanos} (local monotonic
 * clock) found the store's clock at {@code storeClockMillis}. The store read its clock
 * after the request was sent, so a store time {@code t} is no earlier, locally, than
 * {@code sentAtNanos + (t - storeClockMillis)}: a lower bound, as safe as the lease
 * arithmetic of every grant (both clocks run at the same rate, up to the lease's drift
 * margin).
 *
 * @param sentAtNanos when the request was sent ({@link System#nanoTime()})
 * @param storeClockMillis the store's clock its reply told, in milliseconds
 * @author distlock
 * @since 0.1.0
 */
record StoreClockReading(long sentAtNanos, long storeClockMillis) {

	/**
	 * Return until when, at the latest on the local clock, a grant that a wake-up carried
	 * lives in the store unless extended: the earliest local time of its grant time, plus
	 * its lifetime, less the drift margin of a lease that long.
	 * @param grant the grant
	 * @return the end of the grant on the local monotonic clock
	 */
	long grantEndNanos(FairGrant grant) {
		long grantedAt = this.sentAtNanos
				+ TimeUnit.MILLISECONDS.toNanos(grant.grantedAtMillis() - this.storeClockMillis);
		return grantedAt + grant.lifetime().toNanos() - Lease.driftNanos(grant.lifetime().toNanos());
	}

}
