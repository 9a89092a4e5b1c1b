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

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock key in the store, and whether the asking client holds it; see
 * {@link DefaultLockClient#inspect(String)}.
 *
 * @param key the lock key
 * @param held whether anyone holds the key in the store
 * @param ttl the time to live of the key in the store, or {@code null} when free or when
 * the key has no expiry
 * @param holderClientId the {@link DefaultLockClient#clientId() client id} of the holder
 * when it is a distlock client, else {@code null}
 * @param heldByThisClient whether the asking client is the holder
 * @param lastFencingToken the last fencing token the store granted for the key, or
 * {@code 0} if unknown
 * @param local the asking client's own hold of the key, if it has one
 * @author distlock
 * @since 0.1.0
 */
public record LockState(String key, boolean held, @Nullable Duration ttl, @Nullable String holderClientId,
		boolean heldByThisClient, long lastFencingToken, @Nullable HeldLock local) {

}
