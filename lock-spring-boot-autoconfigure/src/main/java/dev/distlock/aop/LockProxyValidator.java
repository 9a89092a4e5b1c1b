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
import java.lang.reflect.Modifier;

import org.springframework.aop.Advisor;
import org.springframework.aop.MethodMatcher;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.SmartInstantiationAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.util.ReflectionUtils;

/**
 * Checks every proxy that carries a {@link DistributedLockAdvisor}, once it is created,
 * for {@code @DistributedLock} methods that the proxy cannot intercept: final methods of
 * a class-based (CGLIB) proxy, which cannot be overridden, so calls to them would run on
 * the target without the lock. Such a bean fails its creation, and so the application
 * context, with a message naming the method.
 * <p>
 * Only the proxy that exists knows its type: whether a bean is proxied by class or
 * through its interfaces depends on {@code proxyTargetClass}, on the interfaces the class
 * implements and on other auto-proxy settings. A final method implementing an interface
 * method of a JDK interface proxy is fine: the proxy calls it on the target. Private and
 * static methods are never intercepted by any proxy; {@link DistributedLockAdvisor}
 * rejects those when it first inspects a class.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockProxyValidator implements SmartInstantiationAwareBeanPostProcessor, Ordered, AopInfrastructureBean {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		validate(bean, beanName);
		return bean;
	}

	/**
	 * Check a proxy created early to resolve a circular reference.
	 */
	@Override
	public Object getEarlyBeanReference(Object bean, String beanName) {
		validate(bean, beanName);
		return bean;
	}

	private static void validate(Object bean, String beanName) {
		if (!(bean instanceof Advised advised) || !AopUtils.isCglibProxy(bean)) {
			return;
		}
		Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
		for (Advisor advisor : advised.getAdvisors()) {
			if (advisor instanceof DistributedLockAdvisor lockAdvisor) {
				MethodMatcher lockedMethods = lockAdvisor.getPointcut().getMethodMatcher();
				for (Method method : ReflectionUtils.getUniqueDeclaredMethods(targetClass,
						ReflectionUtils.USER_DECLARED_METHODS)) {
					if (Modifier.isFinal(method.getModifiers()) && lockedMethods.matches(method, targetClass)) {
						throw LockOperationSource.notInterceptable(method, "the method is final and bean '" + beanName
								+ "' is a class-based (CGLIB) proxy, which cannot override final methods, so calls "
								+ "to it would run without the lock; remove 'final', or have the bean proxied "
								+ "through an interface that declares the method");
					}
				}
			}
		}
	}

	/**
	 * Run after the auto-proxy creator.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
