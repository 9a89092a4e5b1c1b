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
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import dev.distlock.core.LockClient;
import dev.distlock.store.support.LockKeyRules;
import dev.distlock.store.LockStore;
import org.aopalliance.aop.Advice;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.core.Ordered;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

/**
 * Advisor that locks calls to {@link dev.distlock.annotation.DistributedLock
 * &#064;DistributedLock} methods with the {@link LockClient} bean of its bean factory.
 * The methods of a bean class are inspected, and their annotations validated, when the
 * class is first matched, so an invalid duration, key expression or fallback, a private
 * or static annotated method (which no proxy intercepts), or a missing {@link LockClient}
 * bean, fails the application at startup instead of leaving methods unlocked. Final
 * methods of class-based proxies are rejected by {@link LockProxyValidator} once the
 * proxy exists.
 * <p>
 * Its {@link #DEFAULT_ORDER default order} runs it outside {@code @Transactional} and
 * {@code @Cacheable} advice (which default to {@link Ordered#LOWEST_PRECEDENCE}), so the
 * lock is held until the transaction has ended.
 *
 * @author distlock
 * @since 0.1.0
 */
public class DistributedLockAdvisor extends AbstractPointcutAdvisor
		implements ApplicationEventPublisherAware, SmartInitializingSingleton {

	/**
	 * Default order: {@code Ordered.LOWEST_PRECEDENCE - 100}.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	/**
	 * Pointcut matching methods annotated with {@code @DistributedLock}.
	 */
	private final Pointcut pointcut;

	/**
	 * Interceptor that locks around the call.
	 */
	private final DistributedLockInterceptor advice;

	/**
	 * Bean factory that holds the lock store the locked methods are checked against.
	 */
	private final BeanFactory beanFactory;

	/**
	 * Lock operations of the matched bean classes.
	 */
	private final LockOperationSource operations;

	/**
	 * Create an advisor.
	 * @param beanFactory the bean factory that holds the {@link LockClient} bean; also
	 * resolves {@code ${...}} placeholders in durations and {@code @bean} references in
	 * key expressions
	 * @param defaultWaitTime how long to wait when a method does not set {@code waitTime}
	 */
	public DistributedLockAdvisor(BeanFactory beanFactory, Duration defaultWaitTime) {
		this(beanFactory, defaultWaitTime, LockKeyRules.DEFAULT_MAX_KEY_LENGTH, LockKeyRules.DEFAULT_MAX_KEYS, false);
	}

	/**
	 * Create an advisor with limits on keys and knowledge of the lock store.
	 * @param beanFactory the bean factory that holds the {@link LockClient} bean; also
	 * resolves {@code ${...}} placeholders in durations and {@code @bean} references in
	 * key expressions
	 * @param defaultWaitTime how long to wait when a method does not set {@code waitTime}
	 * @param maxKeyLength the longest key a call may use, in bytes of UTF-8
	 * @param maxKeys the most keys one call may lock
	 * @param replicaAcknowledgement whether grants wait for replicas to acknowledge them
	 * ({@code distlock.replication.min-replicas}), which fair and read locks cannot do:
	 * such methods then fail the startup
	 * @since 0.1.0
	 */
	public DistributedLockAdvisor(BeanFactory beanFactory, Duration defaultWaitTime, int maxKeyLength, int maxKeys,
			boolean replicaAcknowledgement) {
		Assert.notNull(beanFactory, "'beanFactory' must not be null");
		Assert.notNull(defaultWaitTime, "'defaultWaitTime' must not be null");
		Assert.isTrue(!defaultWaitTime.isNegative(),
				() -> "'defaultWaitTime' must not be negative, but was " + defaultWaitTime);
		Assert.isTrue(maxKeyLength > 0, () -> "'maxKeyLength' must be positive, but was " + maxKeyLength);
		Assert.isTrue(maxKeys > 0, () -> "'maxKeys' must be positive, but was " + maxKeys);
		LockKeyEvaluator evaluator = new LockKeyEvaluator(beanFactory, maxKeyLength, maxKeys);
		LockOperationSource operations = new LockOperationSource(defaultWaitTime, beanFactory, evaluator,
				replicaAcknowledgement);
		this.beanFactory = beanFactory;
		this.operations = operations;
		this.pointcut = new LockedMethodPointcut(operations, beanFactory);
		this.advice = new DistributedLockInterceptor(operations, evaluator,
				SingletonSupplier.of(() -> beanFactory.getBean(LockClient.class)),
				() -> beanFactory.getBeanProvider(LockFailureHandler.class).getIfUnique());
		setOrder(DEFAULT_ORDER);
	}

	/**
	 * Set the executor that the bodies of locked methods returning a
	 * {@link java.util.concurrent.CompletionStage} or a reactive type are called on once
	 * their lock is granted, never on a thread of the lock client. By default each runs
	 * on a new daemon thread of its own.
	 * @param asyncExecutor supplies the executor; asked once, at the first call that
	 * needs it
	 * @since 0.1.0
	 */
	public void setAsyncExecutor(Supplier<? extends Executor> asyncExecutor) {
		Assert.notNull(asyncExecutor, "'asyncExecutor' must not be null");
		this.advice.setAsyncExecutor(() -> {
			Executor executor = asyncExecutor.get();
			Assert.state(executor != null, "The executor of asynchronous @DistributedLock methods must not be null");
			return executor;
		});
	}

	/**
	 * Run the bodies of asynchronous locked methods on a new virtual thread each (Java 21
	 * or later) rather than the default new platform thread, unless an executor is
	 * {@link #setAsyncExecutor set}.
	 * @throws UnsupportedOperationException before Java 21
	 * @since 0.1.0
	 */
	public void useVirtualThreads() {
		Executor virtualThreads = AsyncBodies.newExecutor(true);
		this.advice.setAsyncExecutor(() -> virtualThreads);
	}

	/**
	 * Set how long a cancelled subscription of a locked method returning a reactive type
	 * keeps its lock before releasing it. The cancel is passed on to the method's
	 * publisher, but whether the work behind it stopped cannot be seen; zero releases at
	 * the cancel. Defaults to 30 seconds.
	 * @param holdAfterCancel the time
	 * @since 0.1.0
	 */
	public void setHoldAfterCancel(Duration holdAfterCancel) {
		Assert.notNull(holdAfterCancel, "'holdAfterCancel' must not be null");
		Assert.isTrue(!holdAfterCancel.isNegative(),
				() -> "'holdAfterCancel' must not be negative, but was " + holdAfterCancel);
		this.advice.setHoldAfterCancel(holdAfterCancel);
	}

	/**
	 * Once every singleton exists, refuse the locked methods that ask for what the
	 * application's lock store cannot do (a fair or read lock from a store without them),
	 * naming the method, the attribute and the store.
	 * @throws IllegalStateException for the first such method
	 */
	@Override
	public void afterSingletonsInstantiated() {
		LockStore store = this.beanFactory.getBeanProvider(LockStore.class).getIfUnique();
		if (store != null) {
			StoreSupportCheck.check(this.operations.resolvedOperations(), store);
		}
	}

	/**
	 * Set the publisher of the {@link LockReleaseFailedEvent}s of the advice.
	 * @param applicationEventPublisher the publisher
	 */
	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher applicationEventPublisher) {
		this.advice.setEventPublisher(applicationEventPublisher);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.advice;
	}

	/**
	 * Matches the {@code @DistributedLock} methods of classes that have any. A class is
	 * validated when first matched, including that a {@link LockClient} bean exists.
	 */
	private static final class LockedMethodPointcut extends StaticMethodMatcherPointcut {

		private final LockOperationSource operations;

		LockedMethodPointcut(LockOperationSource operations, BeanFactory beanFactory) {
			this.operations = operations;
			setClassFilter(lockedClasses(operations, beanFactory));
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return this.operations.getOperation(method, targetClass) != null;
		}

		private static ClassFilter lockedClasses(LockOperationSource operations, BeanFactory beanFactory) {
			return (targetClass) -> {
				if (!operations.hasLockedMethods(targetClass)) {
					return false;
				}
				if (beanFactory instanceof ListableBeanFactory listable && BeanFactoryUtils
					.beanNamesForTypeIncludingAncestors(listable, LockClient.class, true, false).length == 0) {
					throw new IllegalStateException("@DistributedLock methods of " + targetClass.getName()
							+ " need a LockClient bean, but there is none. distlock auto-configures one on the lock "
							+ "store that distlock.store selects, or, unset, on the only store present. Add "
							+ "lock-spring-boot-starter for Redis (it needs a RedisConnectionFactory and one "
							+ "StringRedisTemplate, or a @Primary one), lock-spring-boot-starter-jdbc for a "
							+ "database (it needs a DataSource) or lock-spring-boot-starter-zookeeper for "
							+ "ZooKeeper (it needs a CuratorFramework or distlock.zookeeper.connect-string); "
							+ "or set distlock.store=memory for locks within this JVM only, or define a "
							+ "LockClient bean.");
				}
				return true;
			};
		}

	}

}
