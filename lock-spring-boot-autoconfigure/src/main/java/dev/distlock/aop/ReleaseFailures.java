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

import org.jspecify.annotations.Nullable;

/**
 * Reports a release that failed after a locked method had completed normally, and gives
 * the exception its caller gets.
 *
 * @author distlock
 */
@FunctionalInterface
interface ReleaseFailures {

	/**
	 * Report the failed release.
	 * @param operation the locked method
	 * @param target the bean
	 * @param releaseFailure what the release threw
	 * @param result what the method returned or its asynchronous result completed with
	 * @param transactionCommitted whether a transaction that began inside the lock
	 * committed
	 * @return the exception for the caller: one that carries the result when the release
	 * found the lock lost or Redis failing, else {@code releaseFailure}
	 */
	Throwable afterCompletion(LockOperation operation, Object target, Throwable releaseFailure, @Nullable Object result,
			boolean transactionCommitted);

}
