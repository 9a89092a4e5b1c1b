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
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.annotation.LeaderOnly;
import dev.distlock.leader.Leadership;
import org.aopalliance.aop.Advice;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.Assert;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Advisor that runs {@link LeaderOnly @LeaderOnly} methods only while the
 * {@link Leadership} bean of its bean factory leads. A class with such methods fails the
 * application at startup, when first matched, if there is no {@link Leadership} bean
 * ({@code distlock.leader.enabled} is not set) or if one of them returns a primitive
 * other than {@code void}, which has no empty result.
 * <p>
 * Its {@link #DEFAULT_ORDER default order} runs it outside the
 * {@link DistributedLockAdvisor} and {@code @Transactional}, so a call on an instance
 * that does not lead takes no lock and begins no transaction.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LeaderOnlyAdvisor extends AbstractPointcutAdvisor {

	/**
	 * Default order: {@code Ordered.LOWEST_PRECEDENCE - 200}, outside the
	 * {@link DistributedLockAdvisor#DEFAULT_ORDER lock advice}.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 200;

	/**
	 * Matches the methods annotated with {@code @LeaderOnly}.
	 */
	private final Pointcut pointcut;

	/**
	 * Runs a matched method only while this instance leads.
	 */
	private final LeaderOnlyInterceptor advice;

	/**
	 * Create an advisor.
	 * @param beanFactory the bean factory that holds the {@link Leadership} bean
	 */
	public LeaderOnlyAdvisor(BeanFactory beanFactory) {
		Assert.notNull(beanFactory, "'beanFactory' must not be null");
		this.pointcut = new LeaderOnlyPointcut(beanFactory);
		this.advice = new LeaderOnlyInterceptor(SingletonSupplier.of(() -> beanFactory.getBean(Leadership.class)));
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
	 * Return whether {@code method} is annotated with {@link LeaderOnly @LeaderOnly},
	 * directly or through an annotation of its own.
	 */
	static boolean isLeaderOnly(Method method) {
		return AnnotatedElementUtils.hasAnnotation(method, LeaderOnly.class);
	}

	/**
	 * Matches the {@code @LeaderOnly} methods of classes that have any. A class is
	 * validated when first matched.
	 */
	private static final class LeaderOnlyPointcut extends StaticMethodMatcherPointcut {

		private final Map<Class<?>, Boolean> classes = new ConcurrentHashMap<>();

		LeaderOnlyPointcut(BeanFactory beanFactory) {
			setClassFilter(leaderOnlyClasses(beanFactory));
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return isLeaderOnly(AopUtils.getMostSpecificMethod(method, targetClass)) || isLeaderOnly(method);
		}

		private ClassFilter leaderOnlyClasses(BeanFactory beanFactory) {
			return (targetClass) -> this.classes.computeIfAbsent(targetClass,
					(type) -> hasLeaderOnlyMethods(type, beanFactory));
		}

		private static boolean hasLeaderOnlyMethods(Class<?> targetClass, BeanFactory beanFactory) {
			Method[] methods = Arrays.stream(ReflectionUtils.getUniqueDeclaredMethods(targetClass))
				.filter(LeaderOnlyAdvisor::isLeaderOnly)
				.toArray(Method[]::new);
			if (methods.length == 0) {
				return false;
			}
			if (beanFactory instanceof ListableBeanFactory listable && BeanFactoryUtils
				.beanNamesForTypeIncludingAncestors(listable, Leadership.class, true, false).length == 0) {
				throw new IllegalStateException("@LeaderOnly methods of " + targetClass.getName()
						+ " need leadership, which is not enabled: set distlock.leader.enabled=true, and name the "
						+ "leadership with distlock.leader.name or spring.application.name");
			}
			for (Method method : methods) {
				Class<?> type = method.getReturnType();
				if (type.isPrimitive() && type != void.class) {
					throw new IllegalStateException("Invalid @LeaderOnly on " + method + ": a method returning " + type
							+ " has no empty result to return when this instance does not lead; return a "
							+ "wrapper type, Optional or void");
				}
			}
			return true;
		}

	}

}
