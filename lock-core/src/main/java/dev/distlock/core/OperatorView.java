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

import dev.distlock.LossReason;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.support.Stages;
import java.util.Comparator;
import java.util.List;

import dev.distlock.LockLostException;
import dev.distlock.store.LockStore.KeyState;
import org.jspecify.annotations.Nullable;

/**
 * What operators see of and do to one client's locks: the held locks as seen locally, a
 * key's state in the store, and a forced release.
 *
 * @author distlock
 * @since 0.1.0
 */
final class OperatorView {

	static final String FORCED = "an operator force-released it";

	private final LockEngine engine;

	OperatorView(LockEngine engine) {
		this.engine = engine;
	}

	List<HeldLock> heldLocks() {
		return this.engine.held.stream()
			.filter((lease) -> !lease.isEnded())
			.map(this::snapshot)
			.sorted(Comparator.comparing(HeldLock::acquiredAt))
			.toList();
	}

	LockState inspect(String key) {
		KeyState state = Stages.join(inspection().inspect(key));
		Lease local = heldLease(key, state.ownerToken());
		return new LockState(key, state.held(), state.ttl(), clientIdOf(state.ownerToken()), local != null,
				state.lastFencingToken(), (local != null) ? snapshot(local) : null);
	}

	/**
	 * Delete the lock on {@code key} whoever holds it; a holder of this client is marked
	 * lost ({@link LossReason#FORCED}), gets a {@link LockLostException} at its next
	 * check or release, and its local turn passes on.
	 */
	ForcedRelease forceRelease(String key) {
		@Nullable String owner = Stages.join(inspection().forceRelease(key));
		if (owner == null) {
			return new ForcedRelease(key, false, null, false);
		}
		Lease local = heldLease(key, owner);
		if (local != null) {
			this.engine.watchdog.unwatch(local);
			local.reportLost(LossReason.FORCED, FORCED);
			this.engine.lost(local);
		}
		return new ForcedRelease(key, true, clientIdOf(owner), local != null);
	}

	private InspectionExtension inspection() {
		return this.engine.extensions.required(this.engine.extensions.inspection(), InspectionExtension.class,
				"inspect or force-release lock keys");
	}

	private @Nullable Lease heldLease(String key, @Nullable String token) {
		if (token == null) {
			return null;
		}
		for (Lease lease : this.engine.held) {
			if (lease.token.equals(token) && lease.key().equals(key)) {
				return lease;
			}
		}
		return null;
	}

	private static @Nullable String clientIdOf(@Nullable String token) {
		if (token == null) {
			return null;
		}
		int separator = token.lastIndexOf(':');
		return (separator > 0) ? token.substring(0, separator) : null;
	}

	private HeldLock snapshot(Lease lease) {
		return new HeldLock(lease.tracking.name, lease.key(), lease.acquiredAt, lease.remaining(), lease.renewable,
				lease.fencingToken, lease.holderThread, lease.lossKind(), this.engine.waitingCount(lease.key()));
	}

}
