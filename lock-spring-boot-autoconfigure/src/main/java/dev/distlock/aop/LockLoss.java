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

package dev.distlock.aop;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockLostException;
import dev.distlock.core.LockHandle;
import dev.distlock.core.LockHold;
import dev.distlock.LossReason;

/**
 * The loss of the locks of one call of a {@code @DistributedLock} method, as the
 * {@code CANCEL} and {@code INTERRUPT} loss policies act on it: a future completed with
 * the {@link LockLostException} of the first lock of the call found lost, never if none
 * is. It completes on a thread of the lock client: what acts on it only hands work on.
 *
 * @author distlock
 */
final class LockLoss {

	private LockLoss() {
	}

	/**
	 * Return the loss of the lock the current thread holds through {@code lock}.
	 * @param lock the handle, held by the current thread
	 * @return completed when the lock is lost
	 */
	static CompletableFuture<LockLostException> of(LockHandle lock) {
		String key = lock.key();
		return lock.whenLost().thenApply((reason) -> exception(key, reason)).toCompletableFuture();
	}

	/**
	 * Return the loss of the first of {@code holds} found lost.
	 * @param holds the holds of one call
	 * @return completed when one of them is lost
	 */
	static CompletableFuture<LockLostException> ofAny(List<LockHold> holds) {
		CompletableFuture<LockLostException> lost = new CompletableFuture<>();
		for (LockHold hold : holds) {
			String key = hold.key();
			hold.whenLost().thenAccept((reason) -> lost.complete(exception(key, reason)));
		}
		return lost;
	}

	private static LockLostException exception(String key, LossReason reason) {
		return new LockLostException(key, describe(reason) + " while the method ran (reason " + reason.tagValue()
				+ "); the call was stopped by its loss policy");
	}

	private static String describe(LossReason reason) {
		return switch (reason) {
			case TAKEN -> "the store no longer recorded it as held (its key was deleted, expired or taken over)";
			case FORCED -> "an operator force-released it";
			case MAX_HOLD -> "it was held longer than distlock.max-hold";
			case CLOSED -> "the LockClient was closed";
			case EXPIRED -> "its lease ran out";
			case BACKEND -> "its lease ran out while the store could not renew it";
			case SESSION_EXPIRED -> "the store's session ended";
		};
	}

}
