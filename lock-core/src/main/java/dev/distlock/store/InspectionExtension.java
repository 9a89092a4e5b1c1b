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
package dev.distlock.store;

import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.KeyState;
import org.jspecify.annotations.Nullable;

/**
 * What operators need (the actuator endpoint): a key's state, and deleting a stuck lock
 * whoever holds it.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface InspectionExtension extends LockStoreExtension {

	/**
	 * Return the state of the lock on {@code key}, read from the authoritative copy.
	 * @param key the lock key
	 * @return the key's state; failed with {@link LockBackendException} if the backend
	 * failed
	 */
	CompletionStage<KeyState> inspect(String key);

	/**
	 * Delete the lock on {@code key} whoever holds it, and notify the
	 * {@link LockStore#onRelease release listeners}: the holder loses the lock while it
	 * may still be working.
	 * @param key the lock key
	 * @return the owner token of the deleted lock, or {@code null} if the key was free;
	 * failed with {@link LockBackendException} if the backend failed
	 */
	CompletionStage<@Nullable String> forceRelease(String key);

}
