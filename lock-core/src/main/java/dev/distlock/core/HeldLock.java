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
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A lock a {@link DefaultLockClient} holds, as seen by that client at one moment; see
 * {@link DefaultLockClient#heldLocks()}.
 *
 * @param name the low-cardinality name the lock was acquired with
 * @param key the lock key
 * @param acquiredAt when it was granted
 * @param leaseRemaining how long the holder still believes it holds the lock without
 * another renewal (zero once run out)
 * @param renewed whether the watchdog renews the lease (else a fixed lease)
 * @param fencingToken the fencing token of the grant
 * @param thread the name of the thread holding a thread-bound lock, or {@code null} for a
 * hold owned by a call ({@link LockHold})
 * @param lost why the lock is known to be lost although its holder has not released it
 * yet, or {@code null}
 * @param waiting how many callers of this client wait for the same key
 * @author distlock
 * @since 0.1.0
 */
public record HeldLock(String name, String key, Instant acquiredAt, Duration leaseRemaining, boolean renewed,
		long fencingToken, @Nullable String thread, @Nullable LossReason lost, int waiting) {

}
