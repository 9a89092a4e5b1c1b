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

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.config.SmartInstantiationAwareBeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * Appends, as the innermost advice of every proxy that carries a
 * {@link DistributedLockAdvisor}, the check that confirms lock ownership before a
 * transaction commits. Being last in the chain, the check runs inside any transaction
 * that {@code @Transactional} begins inside the lock, whatever the advisor orders.
 * <p>
 * Needs {@code spring-tx}. Proxies that are frozen cannot be extended: a frozen proxy of
 * a bean with {@code @DistributedLock} methods fails its creation.
 *
 * @author distlock
 * @since 0.1.0
 */
public class TransactionalLockPostProcessor
		implements SmartInstantiationAwareBeanPostProcessor, Ordered, AopInfrastructureBean {

	private final LockOwnershipTransactionInterceptor interceptor = new LockOwnershipTransactionInterceptor();

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		return addOwnershipCheck(bean, beanName);
	}

	/**
	 * Add the check to a proxy created early to resolve a circular reference.
	 */
	@Override
	public Object getEarlyBeanReference(Object bean, String beanName) {
		return addOwnershipCheck(bean, beanName);
	}

	private Object addOwnershipCheck(Object bean, String beanName) {
		if (bean instanceof Advised advised) {
			DistributedLockAdvisor lockAdvisor = null;
			for (Advisor advisor : advised.getAdvisors()) {
				if (advisor.getAdvice() == this.interceptor) {
					return bean;
				}
				if (advisor instanceof DistributedLockAdvisor candidate) {
					lockAdvisor = candidate;
				}
			}
			if (lockAdvisor != null) {
				addInnermost(advised, lockAdvisor, beanName);
			}
		}
		return bean;
	}

	private void addInnermost(Advised advised, DistributedLockAdvisor lockAdvisor, String beanName) {
		if (advised.isFrozen()) {
			throw new IllegalStateException("The proxy of bean '" + beanName + "' is frozen, so the check that "
					+ "confirms @DistributedLock ownership before a transaction commits cannot be added to it; "
					+ "do not freeze proxies of beans with @DistributedLock methods");
		}
		advised.addAdvisor(new DefaultPointcutAdvisor(lockAdvisor.getPointcut(), this.interceptor));
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
