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
package dev.distlock.sample.observability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.aspectj.lang.annotation.AfterThrowing;
import org.aspectj.lang.annotation.Aspect;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Test aspect, outside every other advice (but Spring's invocation exposure) of
 * {@code VoucherOrderService.order}, that records the exception each user's order call
 * ended with, so a test can tell which {@link dev.distlock.DistributedLockException} a
 * 503 answer stands for.
 *
 * @author distlock
 */
@Aspect
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class OrderOutcomes {

	private final Map<Long, Throwable> failures = new ConcurrentHashMap<>();

	@AfterThrowing(pointcut = "execution(* dev.distlock.sample.voucher.VoucherOrderService.order(..)) "
			+ "&& args(voucherId, userId)", throwing = "failure", argNames = "voucherId,userId,failure")
	void failed(long voucherId, long userId, Throwable failure) {
		this.failures.put(userId, failure);
	}

	/**
	 * Return the exception the last order call of {@code userId} ended with, if any.
	 * @param userId the user
	 * @return the exception, or {@code null}
	 */
	public @Nullable Throwable failureOf(long userId) {
		return this.failures.get(userId);
	}

}
