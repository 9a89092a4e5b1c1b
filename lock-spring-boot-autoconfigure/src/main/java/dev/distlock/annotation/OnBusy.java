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
 * What a {@link DistributedLock @DistributedLock} method does when its lock stays busy
 * for the whole wait time. A {@link DistributedLock#fallbackMethod() fallback method},
 * when set, wins over both.
 *
 * @author distlock
 * @since 0.1.0
 */
public enum OnBusy {

	/**
	 * Throw {@link dev.distlock.LockAcquisitionException} (or fail the returned future or
	 * publisher with it), unless a {@code LockFailureHandler} bean answers instead.
	 */
	THROW,

	/**
	 * Do not run the method and return nothing: {@code null}, {@code Optional.empty()}, a
	 * future completed with {@code null}, an empty {@code Mono} or {@code Flux}, or no
	 * value for {@code void}. Logged at DEBUG. For jobs that must run on one instance per
	 * tick, where the other instances have nothing to do.
	 */
	SKIP

}
