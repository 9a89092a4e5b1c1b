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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Run the annotated method while holding the distributed lock named by {@link #key()}, in
 * one place at a time across every instance of the application. <pre class="code">
 * &#064;DistributedLock(key = "'order:' + #userId", waitTime = "2s")
 * &#064;Transactional
 * public Order placeOrder(long userId, long voucherId) { ... }
 * </pre>
 * <p>
 * The lock is acquired before the method runs and released after it returns or throws,
 * with the handle of that acquisition. When it cannot be acquired within
 * {@link #waitTime()}, the method does not run and a
 * {@link dev.distlock.LockAcquisitionException} is thrown, or the
 * {@link #fallbackMethod()} runs instead. Nested calls with the same key on the same
 * thread re-enter the lock.
 * <p>
 * A method returning a {@code CompletionStage}, a {@code Mono}, a {@code Flux} or another
 * reactive type holds the lock until the returned work completes, errs or is cancelled,
 * and never blocks the caller to acquire it; a busy lock then fails the returned future
 * or publisher instead of throwing. Result types whose end cannot be followed (Kotlin
 * {@code suspend} functions, plain {@code Future}s) fail at startup.
 * <p>
 * The annotation may also sit on an annotation of your own, which then stands for it
 * (attributes of the composed annotation override those it is annotated with, as Spring's
 * merged annotations do): <pre class="code">
 * &#064;Retention(RetentionPolicy.RUNTIME)
 * &#064;DistributedLock(key = "'order:' + #userId", waitTime = "2s")
 * public &#064;interface OrderLock {
 * }
 * </pre>
 * <p>
 * The key expression may also evaluate to a {@code Collection} or an array: every key is
 * then locked, all or nothing, in a fixed order, so callers with overlapping sets never
 * deadlock; duplicates count once.
 * <p>
 * Like {@code @Transactional}, the annotation applies to calls through the Spring proxy
 * of the bean: a call from one method of a bean to another method of the same bean is not
 * locked. The advice runs outside {@code @Transactional} by default, so the lock is
 * released after the transaction has committed or rolled back, and ownership is confirmed
 * just before the commit.
 *
 * @author distlock
 * @since 0.1.0
 * @see dev.distlock.core.LockClient
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * SpEL expression for the lock key, evaluated for every call like a
	 * {@code @Cacheable} key, for example {@code "'order:' + #userId"}. Method arguments
	 * are available by name ({@code #userId}, if compiled with {@code -parameters}) and
	 * by position ({@code #p0} or {@code #a0}); {@code #root.method},
	 * {@code #root.target}, {@code #root.targetClass}, {@code #root.methodName} and
	 * {@code #root.args} describe the call; {@code @beanName} refers to a bean. The key
	 * must name the same lock for the same input on every call, so the call fails with an
	 * {@link dev.distlock.InvalidLockKeyException} before the method runs when the result
	 * is {@code null} or blank, when an operand of the expression's string concatenation
	 * is {@code null} (handle it in the expression:
	 * {@code "'order:' + (#userId ?: 'guest')"}), when a value without its own
	 * {@code toString()} or an array is turned into text, when the key is malformed
	 * UTF-16 or longer than {@code distlock.max-key-length}, or when there are more keys
	 * than {@code distlock.max-keys}.
	 * @return the key expression
	 */
	String key();

	/**
	 * How long to wait for the lock when it is held elsewhere, for example {@code "0"},
	 * {@code "500ms"}, {@code "2s"}, {@code "PT2S"} or {@code "${orders.lock-wait}"}. A
	 * number without unit means milliseconds. Empty means the {@code distlock.wait-time}
	 * property.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * Fixed lease of the lock, for example {@code "10s"}: Redis releases the lock when it
	 * ends even if the method is still running. Empty means a lease that is renewed for
	 * as long as the method runs ({@code distlock.watchdog-lease}).
	 * @return the lease time
	 */
	String leaseTime() default "";

	/**
	 * Name of a method of the same bean to call instead when the lock is held elsewhere,
	 * for example {@code "orderBusy"}. It takes the same parameters as the annotated
	 * method, optionally followed by a parameter that accepts the
	 * {@link dev.distlock.LockAcquisitionException}, and returns a type assignable to the
	 * annotated method's return type. Empty means no fallback: the exception is thrown.
	 * @return the fallback method name
	 */
	String fallbackMethod() default "";

	/**
	 * What to do when the lock stays busy and there is no {@link #fallbackMethod()}:
	 * throw (the default) or skip the call, for example for a {@code @Scheduled} job that
	 * must run on one instance per tick.
	 * @return the busy policy
	 */
	OnBusy onBusy() default OnBusy.THROW;

	/**
	 * What to do when the lock is lost while the method runs, for example
	 * {@code onLoss = LockLossPolicy.CANCEL} on a method returning a {@code Mono} whose
	 * work must stop as soon as another instance may hold the lock. The default,
	 * {@link LockLossPolicy#REPORT REPORT}, lets the method run on and reports the loss
	 * when it ends. {@link LockLossPolicy#CANCEL CANCEL} is for methods returning a
	 * {@code CompletionStage} or a reactive type, {@link LockLossPolicy#INTERRUPT
	 * INTERRUPT} for synchronous ones: the other way round fails at startup.
	 * @return the loss policy
	 * @since 0.1.0
	 */
	LockLossPolicy onLoss() default LockLossPolicy.REPORT;

	/**
	 * Keep the lock at least this long after it was acquired, even if the method finished
	 * sooner, for example {@code "500ms"}: a job that takes 5 ms then still runs once per
	 * tick across instances whose clocks fire a little apart. The release then shortens
	 * the lease to what is left (owner-checked) instead of deleting the key. Must not be
	 * longer than a fixed {@link #leaseTime()}. Empty means release at once; on a
	 * {@code @Scheduled} method a warning is then logged at startup, as the job may run
	 * on several instances in one tick.
	 * @return the minimum hold time
	 */
	String holdAtLeast() default "";

	/**
	 * Whether the method takes the key's exclusive write lock (the default) or a shared
	 * read lock, for example {@code mode = LockMode.READ} on a method that only reads
	 * what writers of the same key change. With several keys, every key is locked in this
	 * mode.
	 * @return the lock mode
	 * @since 0.1.0
	 */
	LockMode mode() default LockMode.WRITE;

	/**
	 * Name of the lock in metrics and traces, for example {@code "orders.place"} or
	 * {@code "${orders.lock-name}"}: the {@code name} tag of the {@code distlock.*}
	 * meters and the {@code distlock.name} key value of the {@code distlock.lock}
	 * observation. Keep it low-cardinality; the evaluated key is never used as a tag.
	 * Empty means {@code SimpleClassName.methodName} of the bean class, for example
	 * {@code "OrderService.placeOrder"}.
	 * @return the lock name
	 * @since 0.1.0
	 */
	String name() default "";

	/**
	 * Whether callers get the lock in the order they started waiting for it, across every
	 * instance, for example {@code fair = true} on a method whose callers must not be
	 * starved: each waiting call has its own place in a queue in Redis, and a release
	 * grants the lock to the next live waiter directly (see {@code LockClient#fair()}).
	 * Slower than the default, which lets any waiter take a released lock (and lets an
	 * instance hand the lock to its own waiters first). Several keys are taken one by one
	 * in key order, each fairly. Not available with replica acknowledgement
	 * ({@code distlock.redis.replication.min-replicas}): the application then fails at
	 * startup, as it does for read locks. Read locks have no fair mode:
	 * {@code fair = true} with {@code mode = LockMode.READ} fails at startup.
	 * @return whether the lock is fair
	 * @since 0.1.0
	 */
	boolean fair() default false;

	/**
	 * How many segments the item named by {@link #key()} is split into, for example
	 * {@code segments = 8} on the order method of a flash sale's one hot product: each
	 * call locks one of the item's segment keys ({@code stock:42#0} to
	 * {@code stock:42#7}, see {@code SegmentKeys}), whichever is free, so up to 8 calls
	 * of one item run at once, each on a segment of its own, which it reads with
	 * {@code CurrentLock.segment()}. A call waits, within {@link #waitTime()}, only when
	 * every segment is busy. The default, 1, means not segmented. Not available with
	 * {@code mode = LockMode.READ}, {@code fair = true} or a key expression that names
	 * several keys: the application fails at startup where that can be told, else the
	 * call fails.
	 * @return the number of segments, at least 1
	 * @since 0.1.0
	 */
	int segments() default 1;

	/**
	 * SpEL expression deciding whether a segment may serve a call, evaluated with the
	 * candidate segment's index as {@code #segment} and the method's arguments as for
	 * {@link #key()}, for example {@code "@stock.hasStock(#voucherId, #segment)"}: a
	 * rejected segment is not asked for. It runs once per segment before any is asked
	 * for, on the calling thread, or on the advice's executor for asynchronous methods.
	 * When it rejects every segment the call fails with
	 * {@link dev.distlock.NoSegmentAvailableException} without taking a lock (no
	 * fallback, no {@link #onBusy()}: waiting would not help). Empty means every segment
	 * may serve. Only with {@link #segments()} greater than 1.
	 * @return the filter expression
	 * @since 0.1.0
	 */
	String segmentFilter() default "";

}
