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

package dev.distlock.annotation;

/**
 * Which lock of a key a {@link DistributedLock @DistributedLock} method takes: the
 * exclusive write lock (the default, the lock of every method without a mode) or a shared
 * read lock. Many readers of a key run at once; a writer runs alone, with no reader. A
 * writer waiting for readers keeps new readers out, so a stream of readers cannot starve
 * it.
 *
 * @author distlock
 * @since 0.1.0
 * @see dev.distlock.core.LockClient#readLocks()
 */
public enum LockMode {

	/**
	 * A shared read lock: runs alongside other readers of the key, never alongside a
	 * writer. Nested read calls on one thread re-enter it; a nested write call on the
	 * same key fails with {@link IllegalStateException} (a read lock cannot be upgraded).
	 * Read locks carry no fencing token ({@code 0}).
	 */
	READ,

	/**
	 * The exclusive write lock, the same lock as that of a method without a mode: runs
	 * alone, with no reader and no other writer of the key. Nested read or write calls on
	 * the same key and thread re-enter it.
	 */
	WRITE

}
