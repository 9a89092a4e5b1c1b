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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.distlock.leader.Leadership;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Calls a {@link dev.distlock.annotation.LeaderOnly @LeaderOnly} method while this
 * instance leads, and otherwise returns what a skipped busy call returns
 * ({@link SkippedCall}).
 *
 * @author distlock
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeaderOnlyInterceptor.class);

	private final Supplier<Leadership> leadership;

	private final Map<Method, LockedReturn> returns = new ConcurrentHashMap<>();

	LeaderOnlyInterceptor(Supplier<Leadership> leadership) {
		this.leadership = leadership;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		if (this.leadership.get().isLeader()) {
			return invocation.proceed();
		}
		Method method = invocation.getMethod();
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + method + ": this instance does not lead '" + this.leadership.get().name() + "'");
		}
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
		return SkippedCall.emptyResult(method,
				this.returns.computeIfAbsent(method, (key) -> returnOf(key, targetClass)));
	}

	/**
	 * Tell how the method returns its work; a result the lock advice would refuse (a
	 * plain {@code Future}) is skipped as a synchronous one, with {@code null}.
	 */
	private static LockedReturn returnOf(Method method, Class<?> targetClass) {
		try {
			return LockedReturn.of(method, targetClass);
		}
		catch (IllegalStateException ex) {
			return LockedReturn.SYNCHRONOUS;
		}
	}

}
