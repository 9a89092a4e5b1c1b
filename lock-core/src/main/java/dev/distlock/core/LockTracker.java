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
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Follows one acquisition of a lock to its outcome and, when the lock was granted, its
 * hold until it ends; returned by
 * {@link LockClientListener#acquisitionStarted(String, String)}. Exactly one of
 * {@link #acquired} and {@link #notAcquired} is called; after {@link #acquired},
 * {@link #lost} is called at most once and {@link #released} exactly once (also when the
 * client is closed while the lock is held). Every method does nothing by default.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockTracker {

	/**
	 * A tracker that does nothing.
	 */
	LockTracker NONE = new LockTracker() {
	};

	/**
	 * The lock was granted: the hold starts.
	 * @param waited the time from asking to the grant
	 * @param fencingToken the fencing token of the grant
	 */
	default void acquired(Duration waited, long fencingToken) {
	}

	/**
	 * The lock was not granted.
	 * @param outcome why: {@link AcquireOutcome#BUSY}, {@link AcquireOutcome#ERROR} or
	 * {@link AcquireOutcome#INTERRUPTED}
	 * @param waited the time from asking to the outcome
	 * @param failure the exception the caller gets, if any
	 */
	default void notAcquired(AcquireOutcome outcome, Duration waited, @Nullable Throwable failure) {
	}

	/**
	 * The lock was found lost while held, or at its release: the holder learns it as a
	 * {@link dev.distlock.LockLostException}.
	 * @param reason how it was lost
	 */
	default void lost(LossReason reason) {
	}

	/**
	 * The hold ended: released by its holder, or on its behalf when the client closed.
	 * @param failure what the release threw, if anything (a
	 * {@link dev.distlock.LockLostException} or
	 * {@link dev.distlock.LockBackendException})
	 */
	default void released(@Nullable Throwable failure) {
	}

}
