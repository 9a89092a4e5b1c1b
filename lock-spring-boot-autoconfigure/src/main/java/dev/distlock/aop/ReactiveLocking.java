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

import dev.distlock.LockAcquisitionException;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * Locks a {@code @DistributedLock} method that returns a reactive type (anything Spring's
 * {@link ReactiveAdapterRegistry} adapts, such as {@code Mono} and {@code Flux}) for as
 * long as each subscription runs. Nothing happens until subscription; each subscription
 * is its own call: it acquires the lock without blocking, calls the method, subscribes to
 * what it returns, and releases the lock on complete, error or cancel, again without
 * blocking. A busy lock is an error signal ({@link LockAcquisitionException}) or the
 * fallback's result.
 * <p>
 * Only loaded when Reactor is on the classpath.
 *
 * @author distlock
 */
final class ReactiveLocking {

	private final ReleaseFailures releaseFailures;

	ReactiveLocking(ReleaseFailures releaseFailures) {
		this.releaseFailures = releaseFailures;
	}

	Object lock(LockClient client, String key, LockOperation operation, MethodInvocation invocation, Object target) {
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance()
			.getAdapter(operation.method().getReturnType());
		if (adapter == null) {
			throw new IllegalStateException("No reactive adapter for " + operation.method().getReturnType());
		}
		Mono<LockHold> acquire = Mono.defer(
				() -> Mono.fromCompletionStage(client.acquireAsync(key, operation.waitTime(), operation.leaseTime())))
			.onErrorMap(LockAcquisitionException.class, Busy::new);
		if (adapter.isMultiValue()) {
			Flux<Object> locked = Flux
				.usingWhen(acquire, (hold) -> Flux.from(call(invocation, adapter)),
						(hold) -> releaseAfterCompletion(hold, operation, target), this::releaseAfterError,
						ReactiveLocking::releaseQuietly)
				.onErrorResume(Busy.class,
						(busy) -> Flux.from(whenBusy(busy.getCause(), operation, invocation, target, adapter)));
			return adapter.fromPublisher(locked);
		}
		Mono<Object> locked = Mono
			.usingWhen(acquire, (hold) -> Mono.from(call(invocation, adapter)),
					(hold) -> releaseAfterCompletion(hold, operation, target), this::releaseAfterError,
					ReactiveLocking::releaseQuietly)
			.onErrorResume(Busy.class,
					(busy) -> Mono.from(whenBusy(busy.getCause(), operation, invocation, target, adapter)));
		return adapter.fromPublisher(locked);
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> call(MethodInvocation invocation, ReactiveAdapter adapter) {
		try {
			MethodInvocation call = (invocation instanceof ProxyMethodInvocation proxied) ? proxied.invocableClone()
					: invocation;
			Object returned = call.proceed();
			return (returned != null) ? (Publisher<Object>) adapter.toPublisher(returned) : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	private Publisher<?> releaseAfterCompletion(LockHold hold, LockOperation operation, Object target) {
		return Mono.fromCompletionStage(hold::releaseAsync)
			.onErrorMap((failure) -> this.releaseFailures.afterCompletion(operation, target,
					CompletionStageLocking.unwrap(failure), null, false));
	}

	private Publisher<?> releaseAfterError(LockHold hold, Throwable error) {
		return Mono.fromCompletionStage(hold::releaseAsync).onErrorResume((failure) -> {
			error.addSuppressed(CompletionStageLocking.unwrap(failure));
			return Mono.empty();
		});
	}

	private static Publisher<?> releaseQuietly(LockHold hold) {
		return Mono.fromCompletionStage(hold::releaseAsync).onErrorResume((failure) -> Mono.empty());
	}

	@SuppressWarnings("unchecked")
	private static Publisher<Object> whenBusy(LockAcquisitionException busy, LockOperation operation,
			MethodInvocation invocation, Object target, ReactiveAdapter adapter) {
		FallbackMethod fallback = operation.fallback();
		if (fallback == null || busy.getCause() instanceof InterruptedException) {
			return Mono.error(busy);
		}
		try {
			@Nullable Object result = fallback.invoke(target, invocation.getArguments(), busy);
			return (result != null) ? (Publisher<Object>) adapter.toPublisher(result) : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	/**
	 * Marks a busy lock, so that only the acquisition's refusal, never an exception of
	 * the method, leads to the fallback.
	 */
	private static final class Busy extends RuntimeException {

		Busy(LockAcquisitionException busy) {
			super(busy.getMessage(), busy, false, false);
		}

		@Override
		public synchronized LockAcquisitionException getCause() {
			return (LockAcquisitionException) super.getCause();
		}

	}

}
