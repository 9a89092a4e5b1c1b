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

import java.lang.reflect.Method;
import java.util.List;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import org.jspecify.annotations.Nullable;

/**
 * A call of a {@code @DistributedLock} method that did not run because its lock could not
 * be had, as handed to a {@link LockFailureHandler}.
 *
 * @param method the annotated method
 * @param target the bean
 * @param arguments the call's arguments
 * @param keys the lock keys the call asked for
 * @param kind why the lock could not be had
 * @param exception the exception the caller would otherwise get
 * @author distlock
 * @since 0.1.0
 */
public record LockFailure(Method method, Object target, @Nullable Object[] arguments, List<String> keys, Kind kind,
		DistributedLockException exception) {

	/**
	 * Why the lock could not be had.
	 */
	public enum Kind {

		/**
		 * Another holder kept the lock for the whole wait time
		 * ({@link LockAcquisitionException}).
		 */
		BUSY,

		/**
		 * Redis could not be reached or did not answer in time
		 * ({@link LockBackendException}).
		 */
		BACKEND_UNAVAILABLE

	}

}
