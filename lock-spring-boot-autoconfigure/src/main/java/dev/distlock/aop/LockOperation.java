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
import java.time.Duration;
import java.util.function.IntPredicate;

import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.annotation.LockMode;
import dev.distlock.annotation.OnBusy;
import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.AnnotatedElementKey;

/**
 * What a {@code @DistributedLock} method asks for, resolved and validated once per method
 * and target class.
 *
 * @param method the annotated method of the target class
 * @param methodKey the cache key of the method and its target class
 * @param keyExpression the SpEL expression of the lock key
 * @param waitTime how long to wait for the lock
 * @param leaseTime the fixed lease, or {@code null} for the watchdog lease
 * @param fallback the method to call when the lock is busy, if any
 * @param lockedReturn how long the lock must live, told from the return type
 * @param onBusy what to do when the lock stays busy and there is no fallback
 * @param onLoss what to do when the lock is lost while the method runs
 * @param holdAtLeast how long the lock stays taken at least, or {@code null}
 * @param name the name of the lock in metrics and traces
 * @param mode whether the method takes the write lock or a read lock
 * @param fair whether callers get the lock in arrival order ({@code LockClient#fair()})
 * @param caller how the advice names the method when it asks for locks
 * ({@code LockCaller}): the bean class's short name and the method's name
 * @param segments how many segments the key is split into; 1 for not segmented
 * @param segmentFilter the SpEL expression that accepts segments, or {@code null} for
 * every one
 * @param segmentAccepts the segment filter bound to one call's arguments
 * ({@link #forCall}); {@code null} in the operation cached per method
 * @author distlock
 */
record LockOperation(Method method, AnnotatedElementKey methodKey, String keyExpression, Duration waitTime,
		@Nullable Duration leaseTime, @Nullable FallbackMethod fallback, LockedReturn lockedReturn, OnBusy onBusy,
		LockLossPolicy onLoss, @Nullable Duration holdAtLeast, String name, LockMode mode, boolean fair, String caller,
		int segments, @Nullable String segmentFilter, @Nullable IntPredicate segmentAccepts) {

	/**
	 * Return whether a call locks one of several segment keys of its key.
	 * @return whether segmented
	 */
	boolean segmented() {
		return this.segments > 1;
	}

	/**
	 * Return the segment filter of one call, accepting every segment if the operation has
	 * none.
	 * @return the filter
	 */
	IntPredicate segmentFilterOfCall() {
		IntPredicate accepts = this.segmentAccepts;
		return (accepts != null) ? accepts : (segment) -> true;
	}

	/**
	 * Return this operation for one call, with its segment filter bound to the call's
	 * arguments.
	 * @param accepts the bound filter
	 * @return the operation of the call
	 */
	LockOperation forCall(IntPredicate accepts) {
		return new LockOperation(this.method, this.methodKey, this.keyExpression, this.waitTime, this.leaseTime,
				this.fallback, this.lockedReturn, this.onBusy, this.onLoss, this.holdAtLeast, this.name, this.mode,
				this.fair, this.caller, this.segments, this.segmentFilter, accepts);
	}

}
