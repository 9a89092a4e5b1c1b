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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Async;
import org.springframework.util.ClassUtils;

/**
 * How long the lock of a {@code @DistributedLock} method must live, told from its return
 * type: as long as the call, or as long as the asynchronous result the call returns.
 * Types whose completion cannot be followed fail at startup, since the lock would end
 * before the work does.
 *
 * @author distlock
 */
enum LockedReturn {

	/**
	 * The work is done when the method returns: lock, call, release.
	 */
	SYNCHRONOUS,

	/**
	 * The method returns a {@link CompletionStage}: lock without blocking the caller,
	 * call once the lock is granted, release when the method's own stage completes
	 * (whatever the caller does with its future).
	 */
	COMPLETION_STAGE,

	/**
	 * An {@code @Async} method returning a {@link CompletionStage}: Spring's advice
	 * already runs it on an executor thread, where the lock is taken by blocking; release
	 * when the stage completes.
	 */
	ASYNC_COMPLETION_STAGE,

	/**
	 * The method returns a reactive type: lock on each subscription without blocking,
	 * release on complete or error, and a while after a cancel (the end of work that
	 * ignores a cancel cannot be seen).
	 */
	REACTIVE;

	private static final boolean reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Flux",
			LockedReturn.class.getClassLoader());

	/**
	 * Tell how the lock of {@code method} must live.
	 * @param method the annotated method
	 * @param beanClass the class of the bean
	 * @return how to lock it
	 * @throws IllegalStateException if the method's result cannot be held under the lock
	 */
	static LockedReturn of(Method method, Class<?> beanClass) {
		Class<?> type = method.getReturnType();
		if (KotlinDetector.isSuspendingFunction(method)) {
			throw unsupported(method, "it is a Kotlin suspend function, whose work the lock cannot follow; "
					+ "return a Mono or a Flow instead, or call a non-suspending locked method");
		}
		if (isAsync(method, beanClass)) {
			return CompletionStage.class.isAssignableFrom(type) ? ASYNC_COMPLETION_STAGE : SYNCHRONOUS;
		}
		if (CompletionStage.class.isAssignableFrom(type)) {
			if (!type.isAssignableFrom(CompletableFuture.class)) {
				throw unsupported(method,
						"it returns " + type.getName()
								+ ", a CompletionStage the lock cannot stand in for; declare CompletableFuture or "
								+ "CompletionStage");
			}
			return COMPLETION_STAGE;
		}
		if (reactorPresent && ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null) {
			return REACTIVE;
		}
		if (Future.class.isAssignableFrom(type)) {
			throw unsupported(method,
					"it returns " + type.getName()
							+ ", a Future whose completion cannot be followed without blocking, so the lock would be "
							+ "released while the work still runs; return CompletableFuture or CompletionStage");
		}
		return SYNCHRONOUS;
	}

	/**
	 * Whether Spring's {@code @Async} runs the method: its advice wraps this one, so the
	 * method body runs on the executor thread, under the lock, like a synchronous call.
	 */
	private static boolean isAsync(Method method, Class<?> beanClass) {
		return AnnotatedElementUtils.hasAnnotation(method, Async.class)
				|| AnnotatedElementUtils.hasAnnotation(beanClass, Async.class);
	}

	private static IllegalStateException unsupported(Method method, String reason) {
		return LockOperationSource.notInterceptable(method,
				"cannot hold a lock for " + method.getName() + ": " + reason);
	}

}
