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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The result of a call that does not run: nothing, in the method's return type. Shared by
 * {@code onBusy = SKIP} and {@link dev.distlock.annotation.LeaderOnly @LeaderOnly}.
 *
 * @author distlock
 */
final class SkippedCall {

	private SkippedCall() {
	}

	/**
	 * Return the result of a skipped call of {@code method}: {@code Optional.empty()}, a
	 * future completed with {@code null}, an empty publisher, or {@code null}.
	 * @param method the method
	 * @param lockedReturn how the method returns its work
	 * @return the empty result
	 */
	static @Nullable Object emptyResult(Method method, LockedReturn lockedReturn) {
		Class<?> type = method.getReturnType();
		if (type == Optional.class) {
			return Optional.empty();
		}
		return switch (lockedReturn) {
			case COMPLETION_STAGE, ASYNC_COMPLETION_STAGE -> CompletableFuture.completedFuture(null);
			case REACTIVE -> ReactiveLocking.empty(type);
			case SYNCHRONOUS -> null;
		};
	}

}
