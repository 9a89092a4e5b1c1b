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
import java.util.function.Supplier;

import dev.distlock.core.LockClient;
import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.Ordered;
import org.springframework.util.Assert;

/**
 * Advisor that locks calls to {@link dev.distlock.annotation.DistributedLock
 * &#064;DistributedLock} methods. The methods of a bean class are inspected, and their
 * annotations validated, when the class is first matched, so an invalid duration, key
 * expression or fallback fails the application at startup.
 * <p>
 * Its {@link #DEFAULT_ORDER default order} runs it outside {@code @Transactional} and
 * {@code @Cacheable} advice (which default to {@link Ordered#LOWEST_PRECEDENCE}), so the
 * lock is held until the transaction has ended.
 *
 * @author distlock
 * @since 0.1.0
 */
public class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	/**
	 * Default order: {@code Ordered.LOWEST_PRECEDENCE - 100}.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final Pointcut pointcut;

	private final Advice advice;

	/**
	 * Create an advisor.
	 * @param beanFactory the bean factory, to resolve {@code ${...}} placeholders in
	 * durations and {@code @bean} references in key expressions
	 * @param lockClient supplies the lock client on first use
	 * @param defaultWaitTime how long to wait when a method does not set {@code waitTime}
	 */
	public DistributedLockAdvisor(BeanFactory beanFactory, Supplier<LockClient> lockClient, Duration defaultWaitTime) {
		Assert.notNull(beanFactory, "'beanFactory' must not be null");
		Assert.notNull(lockClient, "'lockClient' must not be null");
		Assert.notNull(defaultWaitTime, "'defaultWaitTime' must not be null");
		Assert.isTrue(!defaultWaitTime.isNegative(),
				() -> "'defaultWaitTime' must not be negative, but was " + defaultWaitTime);
		LockKeyEvaluator evaluator = new LockKeyEvaluator(beanFactory);
		LockOperationSource operations = new LockOperationSource(defaultWaitTime, beanFactory, evaluator);
		this.pointcut = new LockedMethodPointcut(operations);
		this.advice = new DistributedLockInterceptor(operations, evaluator, lockClient);
		setOrder(DEFAULT_ORDER);
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
	 * Matches the {@code @DistributedLock} methods of classes that have any, validating a
	 * class's annotations when it is first matched.
	 */
	private static final class LockedMethodPointcut extends StaticMethodMatcherPointcut {

		private final LockOperationSource operations;

		LockedMethodPointcut(LockOperationSource operations) {
			this.operations = operations;
			setClassFilter(operations::hasLockedMethods);
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return this.operations.getOperation(method, targetClass) != null;
		}

	}

}
