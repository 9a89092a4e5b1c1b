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

/**
 * Code to run while a lock is held, see {@link LockClient#execute}.
 *
 * @param <T> the result type
 * @param <E> the exception type the code may throw
 * @author distlock
 * @since 0.1.0
 */
@FunctionalInterface
public interface LockedCallback<T, E extends Throwable> {

	/**
	 * Run while the lock is held by the calling thread.
	 * @param lock the held lock, for example to read its {@link LockHandle#fencingToken()
	 * fencing token}
	 * @return the result
	 * @throws E anything the code throws; the lock is released all the same
	 */
	T doWithLock(LockHandle lock) throws E;

}
