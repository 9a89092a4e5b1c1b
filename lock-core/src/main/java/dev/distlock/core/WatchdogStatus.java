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

import org.jspecify.annotations.Nullable;

/**
 * The state of a client's lease watchdog; see {@link DefaultLockClient#watchdogStatus()}.
 *
 * @param renewedLeases how many leases the watchdog renews now
 * @param failing whether the last renewal of some held lease failed (the store failed or
 * did not answer within the renewal interval) and no later answer renewed it
 * @param lastBatch the last renewal batch, or {@code null} before the first
 * @param lastFailure the last batch that failed, or {@code null} if none did
 * @author distlock
 * @since 0.1.0
 */
public record WatchdogStatus(int renewedLeases, boolean failing, @Nullable RenewalBatch lastBatch,
		@Nullable RenewalBatch lastFailure) {

	/**
	 * Return whether held leases are at risk: the last renewal of some of them failed and
	 * the watchdog still has leases to renew, which run out unless the store answers
	 * again.
	 * @return whether leases are at risk
	 */
	public boolean atRisk() {
		return this.failing && this.renewedLeases > 0;
	}

}
