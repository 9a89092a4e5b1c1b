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

package dev.distlock.sample.voucher;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.aspectj.lang.annotation.AfterReturning;
import org.aspectj.lang.annotation.Aspect;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Test aspect that runs an action inside the order transaction of one user, right after
 * the order row is inserted, or right after that transaction commits: the moments at
 * which a test makes the user's lock go missing or Redis fail.
 *
 * @author distlock
 */
@Aspect
public class OrderTransactionHooks {

	private final Map<Long, Runnable> beforeCommit = new ConcurrentHashMap<>();

	private final Map<Long, Runnable> afterCommit = new ConcurrentHashMap<>();

	/**
	 * Run {@code action} once, inside the next order transaction of {@code userId}, after
	 * its insert and before the commit.
	 * @param userId the user
	 * @param action the action
	 */
	public void beforeCommit(long userId, Runnable action) {
		this.beforeCommit.put(userId, action);
	}

	/**
	 * Run {@code action} once, right after the next order transaction of {@code userId}
	 * committed, before the lock is released.
	 * @param userId the user
	 * @param action the action
	 */
	public void afterCommit(long userId, Runnable action) {
		this.afterCommit.put(userId, action);
	}

	@AfterReturning(pointcut = "execution(* dev.distlock.sample.voucher.VoucherOrderRepository.insert(..)) "
			+ "&& args(voucherId, userId, ..)", argNames = "voucherId,userId")
	void inserted(long voucherId, long userId) {
		Runnable before = this.beforeCommit.remove(userId);
		if (before != null) {
			before.run();
		}
		Runnable after = this.afterCommit.remove(userId);
		if (after != null) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					after.run();
				}

			});
		}
	}

	/**
	 * Adds the hooks to an application.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(proxyTargetClass = true)
	public static class HooksConfiguration {

		@Bean
		OrderTransactionHooks orderTransactionHooks() {
			return new OrderTransactionHooks();
		}

	}

}
