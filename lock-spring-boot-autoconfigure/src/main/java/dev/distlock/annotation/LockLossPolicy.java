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
 * What a {@link DistributedLock @DistributedLock} method does when its lock is lost while
 * it runs: the watchdog found the key taken, the lease ran out while the store could not
 * be reached, an operator force-released it, it was held past {@code distlock.max-hold},
 * or the application shut down (see {@code dev.distlock.core.LockHold#whenLost()}). The
 * advice never takes the lock again for the same call.
 *
 * @author distlock
 * @since 0.1.0
 */
public enum LockLossPolicy {

	/**
	 * Let the method run on, and report the loss when it ends: the release throws
	 * {@link dev.distlock.LockLostAfterCompletionException} (with the method's result)
	 * after a method that returned, or the method's own exception carries the
	 * {@link dev.distlock.LockLostException} as suppressed. The default.
	 */
	REPORT,

	/**
	 * Stop asynchronous work at once: the future a {@code CompletionStage} method
	 * returned fails with {@link dev.distlock.LockLostException} and the method's own
	 * stage is cancelled; a {@code Mono} or {@code Flux} errors with it and its upstream
	 * subscription is disposed. Only for methods returning a {@code CompletionStage} or a
	 * reactive type: on a synchronous method the application fails at startup (use
	 * {@link #INTERRUPT}).
	 */
	CANCEL,

	/**
	 * Interrupt the thread running a synchronous method: the call ends with
	 * {@link dev.distlock.LockLostException}, with the method's own exception suppressed
	 * into it ({@link dev.distlock.LockLostAfterCompletionException} with the result if
	 * the method returned anyway), and the advice clears the interrupt it caused. Only
	 * for synchronous methods: on an asynchronous one the application fails at startup
	 * (use {@link #CANCEL}).
	 */
	INTERRUPT

}
