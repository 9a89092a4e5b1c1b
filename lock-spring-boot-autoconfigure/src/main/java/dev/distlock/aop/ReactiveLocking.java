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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * Locks a {@code @DistributedLock} method that returns a reactive type (anything Spring's
 * {@link ReactiveAdapterRegistry} adapts, such as {@code Mono} and {@code Flux}) for as
 * long as each subscription runs. Nothing happens until subscription; each subscription
 * is its own call: it acquires the lock without blocking, calls the method and subscribes
 * to what it returns on the application's executor ({@code distlock.async.executor}), and
 * releases the lock on complete or error, again without blocking. A busy lock is an error
 * signal ({@link LockAcquisitionException}) or the fallback's result, also produced on
 * the executor; the signals that follow a release are delivered there too, so no operator
 * of the caller runs on a thread of the lock client.
 * <p>
 * <b>Cancel.</b> A cancel before the grant stops the acquisition. After the grant it is
 * passed on to the method's publisher, so work that honours cancel stops; but a cancelled
 * publisher sends no further signal, so the end of work that ignores the cancel (a
 * blocking call on another thread) cannot be seen. The lock is therefore kept for
 * {@code holdAfterCancel} after the cancel ({@code distlock.reactive.hold-after-cancel})
 * and released then; zero releases at the cancel, for publishers whose work is known to
 * stop with it.
 * <p>
 * <b>Loss.</b> Under the {@code CANCEL} loss policy a lock lost while the subscription
 * runs errors it with {@link LockLostException} and cancels the method's publisher; the
 * lock is never taken again for that subscription.
 * <p>
 * Only loaded when Reactor is on the classpath.
 *
 * @author distlock
 */
final class ReactiveLocking {

	private final ReleaseFailures releaseFailures;

	private final LockFailurePolicy failurePolicy;

	private final Executor executor;

	private final Scheduler scheduler;

	private final Duration holdAfterCancel;

	ReactiveLocking(ReleaseFailures releaseFailures, LockFailurePolicy failurePolicy, Executor executor,
			Duration holdAfterCancel) {
		this.releaseFailures = releaseFailures;
		this.failurePolicy = failurePolicy;
		this.executor = executor;
		this.scheduler = Schedulers.fromExecutor(executor);
		this.holdAfterCancel = holdAfterCancel;
	}

	Object lock(LockClient client, List<String> keys, LockOperation operation, MethodInvocation invocation,
			Object target) {
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance()
			.getAdapter(operation.method().getReturnType());
		if (adapter == null) {
			throw new IllegalStateException("No reactive adapter for " + operation.method().getReturnType());
		}
		// A cancellation (a disposed subscription, a disconnected client) cancels the
		// acquisition itself; holds that arrive after it are discarded, and released.
		Mono<List<LockHold>> acquire = Mono
			.defer(() -> Mono.<List<LockHold>>fromFuture(CallLocks.acquireAsync(client, keys, operation, this.executor),
					false))
			.doOnDiscard(List.class, (holds) -> releaseDiscarded(holds))
			.onErrorMap(DistributedLockException.class, NotAcquired::new);
		boolean cancelOnLoss = operation.onLoss() == LockLossPolicy.CANCEL;
		if (adapter.isMultiValue()) {
			Flux<Object> locked = Flux
				.usingWhen(acquire,
						(holds) -> untilLost(onExecutor(Flux.defer(() -> call(invocation, adapter))), holds,
								cancelOnLoss),
						(holds) -> releaseAfterCompletion(holds, operation, target), this::releaseAfterError,
						this::releaseAfterCancel)
				.onErrorResume(NotAcquired.class, (failure) -> onExecutor(Flux
					.defer(() -> notAcquired(failure.getCause(), operation, invocation, target, keys, adapter))));
			return adapter.fromPublisher(locked);
		}
		Mono<Object> locked = Mono
			.usingWhen(acquire,
					(holds) -> untilLost(onExecutor(Mono.defer(() -> Mono.from(call(invocation, adapter)))), holds,
							cancelOnLoss),
					(holds) -> releaseAfterCompletion(holds, operation, target), this::releaseAfterError,
					this::releaseAfterCancel)
			.onErrorResume(NotAcquired.class, (failure) -> onExecutor(Mono.defer(
					() -> Mono.from(notAcquired(failure.getCause(), operation, invocation, target, keys, adapter)))));
		return adapter.fromPublisher(locked);
	}

	/**
	 * Subscribe to the method's publisher (which calls the method), the fallback's or the
	 * failure handler's on the executor: whichever thread delivered the grant or the
	 * refusal, a thread of the lock client or the subscriber's own, none of them runs
	 * user code. The holds belong to {@code usingWhen} by then, so a refused task
	 * releases them as any other error does.
	 */
	private <T> Mono<T> onExecutor(Mono<T> work) {
		return work.subscribeOn(this.scheduler);
	}

	private <T> Flux<T> onExecutor(Flux<T> work) {
		return work.subscribeOn(this.scheduler);
	}

	/**
	 * Under the {@code CANCEL} loss policy, make the method's publisher error with
	 * {@link LockLostException} as soon as a lock of the subscription is lost: its
	 * upstream subscription is cancelled, then the error is delivered, on the executor;
	 * the holds are released as after any error.
	 */
	private Flux<Object> untilLost(Flux<Object> work, List<LockHold> holds, boolean cancelOnLoss) {
		if (!cancelOnLoss) {
			return work;
		}
		return Flux.defer(() -> {
			AtomicReference<@Nullable LockLostException> loss = new AtomicReference<>();
			Mono<LockLostException> lost = Mono.fromFuture(() -> LockLoss.ofAny(holds))
				.doOnNext(loss::set)
				.publishOn(this.scheduler);
			// takeUntilOther cancels the work when the loss is signalled, and completes
			return work.takeUntilOther(lost).concatWith(Mono.defer(() -> {
				LockLostException lostLock = loss.get();
				return (lostLock != null) ? Mono.error(lostLock) : Mono.empty();
			}));
		});
	}

	private Mono<Object> untilLost(Mono<Object> work, List<LockHold> holds, boolean cancelOnLoss) {
		return cancelOnLoss ? Mono.from(untilLost(work.flux(), holds, true)) : work;
	}

	private static void releaseDiscarded(List<?> holds) {
		holds.stream()
			.filter(LockHold.class::isInstance)
			.map(LockHold.class::cast)
			.forEach((hold) -> hold.releaseAsync().exceptionally((failure) -> null));
	}

	/**
	 * Return an empty value of a reactive type.
	 * @param type the reactive type
	 * @return an empty value of that type
	 */
	static Object empty(Class<?> type) {
		ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
		if (adapter == null) {
			throw new IllegalStateException("No reactive adapter for " + type);
		}
		return adapter.fromPublisher(Mono.empty());
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

	private Publisher<?> releaseAfterCompletion(List<LockHold> holds, LockOperation operation, Object target) {
		// the release failure is reported (a WARN and an application event) on the
		// executor too
		return Mono.fromCompletionStage(() -> CallLocks.releaseAsync(holds, operation.holdAtLeast()))
			.publishOn(this.scheduler)
			.onErrorMap((failure) -> this.releaseFailures.afterCompletion(operation, target,
					CompletionStageLocking.unwrap(failure), null, false));
	}

	private Publisher<?> releaseAfterError(List<LockHold> holds, Throwable error) {
		return Mono.fromCompletionStage(() -> CallLocks.releaseAsync(holds, null)).onErrorResume((failure) -> {
			error.addSuppressed(CompletionStageLocking.unwrap(failure));
			return Mono.empty();
		}).publishOn(this.scheduler);
	}

	/**
	 * Release the holds of a cancelled subscription once {@code holdAfterCancel} has
	 * passed: the cancel was passed on to the method's publisher, but whether its work
	 * stopped cannot be seen.
	 */
	private Publisher<?> releaseAfterCancel(List<LockHold> holds) {
		Mono<Void> release = Mono.fromCompletionStage(() -> CallLocks.releaseAsync(holds, null))
			.onErrorResume((failure) -> Mono.empty());
		return this.holdAfterCancel.isZero() ? release : Mono.delay(this.holdAfterCancel).then(release);
	}

	@SuppressWarnings("unchecked")
	private Publisher<Object> notAcquired(DistributedLockException failure, LockOperation operation,
			MethodInvocation invocation, Object target, List<String> keys, ReactiveAdapter adapter) {
		try {
			@Nullable Object result = this.failurePolicy.answer(operation, invocation, target, keys, failure);
			if (result == null) {
				return Mono.empty();
			}
			return adapter.getReactiveType().isInstance(result) ? (Publisher<Object>) adapter.toPublisher(result)
					: Mono.just(result);
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	/**
	 * Marks a lock that could not be had, so that only the acquisition's failure, never
	 * an exception of the method, goes to the failure policy.
	 */
	private static final class NotAcquired extends RuntimeException {

		private final DistributedLockException failure;

		NotAcquired(DistributedLockException failure) {
			super(failure.getMessage(), failure, false, false);
			this.failure = failure;
		}

		@Override
		public synchronized DistributedLockException getCause() {
			return this.failure;
		}

	}

}
