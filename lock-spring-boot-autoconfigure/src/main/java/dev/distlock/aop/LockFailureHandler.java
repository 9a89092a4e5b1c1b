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
 * The application's one place to answer a {@code @DistributedLock} method that could not
 * get its lock: define a bean of this type and every locked method hands it its
 * backend-unavailable outcomes, and its busy outcomes unless the method has a fallback
 * method of its own or {@code onBusy = SKIP}, for example to map them to a response,
 * count them or skip the call. <pre class="code">
 * &#064;Bean
 * LockFailureHandler lockFailures(MeterRegistry meters) {
 *     return (failure) -&gt; {
 *         meters.counter("orders.lock.failures", "kind", failure.kind().name()).increment();
 *         throw failure.exception();
 *     };
 * }
 * </pre> What the handler returns becomes the method's result; for a method returning a
 * future or a publisher, a future or publisher is used as it is, any other value becomes
 * the single value of the result and {@code null} an empty one. What it throws reaches
 * the caller. A method with {@code onBusy = SKIP} skips busy calls without asking the
 * handler.
 *
 * @author distlock
 * @since 0.1.0
 */
@FunctionalInterface
public interface LockFailureHandler {

	/**
	 * Answer a call whose lock could not be had; the method did not run.
	 * @param failure what was called and why it did not run
	 * @return the result to give the caller
	 * @throws Throwable what the caller should get instead
	 */
	@Nullable Object handle(LockFailure failure) throws Throwable;

}
