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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.RenewalBatch;
import dev.distlock.core.WatchdogStatus;

/**
 * The health of a lock client, independent of the Spring Boot version's health API: down
 * while the watchdog's last renewal of a held lease failed and leases are at risk. It
 * never talks to the store (Spring Boot's own Redis health indicator does). A failed
 * renewal is described by the type of its error, not its message.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LockHealth {

	private final DefaultLockClient client;

	private final List<LockStoreHealth> stores;

	LockHealth(DefaultLockClient client) {
		this(client, List.of());
	}

	LockHealth(DefaultLockClient client, List<LockStoreHealth> stores) {
		this.client = client;
		this.stores = stores;
	}

	/**
	 * Return the state to report.
	 * @return whether leases are at risk, and the details
	 */
	State state() {
		WatchdogStatus status = this.client.watchdogStatus();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("held", this.client.heldCount());
		details.put("renewedLeases", status.renewedLeases());
		RenewalBatch last = status.lastBatch();
		if (last != null) {
			details.put("lastRenewal", last.finishedAt().toString());
			details.put("lastRenewalOutcome", last.outcome().tagValue());
		}
		RenewalBatch failure = status.lastFailure();
		if (failure != null) {
			details.put("lastRenewalError", describe(failure));
			details.put("lastRenewalErrorTime", failure.finishedAt().toString());
		}
		boolean storeDown = false;
		for (LockStoreHealth store : this.stores) {
			storeDown |= store.contribute(details);
		}
		return new State(status.atRisk() || storeDown, details);
	}

	/**
	 * Describe a failed batch by its counts and the type of its error, never the error's
	 * message, which may name keys or hosts.
	 * @param failure the failed batch
	 * @return the description
	 */
	private static String describe(RenewalBatch failure) {
		String text = failure.renewed() + " of " + failure.leases() + " lease(s) renewed, " + failure.lost() + " lost, "
				+ failure.failed() + " not renewed (store failure or timeout)";
		Throwable error = failure.failure();
		return (error != null) ? text + ": " + error.getClass().getName() : text;
	}

	record State(boolean down, Map<String, Object> details) {

	}

}
