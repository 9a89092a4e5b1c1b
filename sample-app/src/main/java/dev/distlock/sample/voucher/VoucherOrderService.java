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

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.CurrentLock;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Orders vouchers, one at a time per user across all instances: the user's lock is
 * acquired before the transaction begins and released after it ends, so a concurrent
 * duplicate request is refused as busy or, once the first one committed, as already
 * ordered.
 *
 * @author distlock
 * @since 0.1.0
 */
@Service
public class VoucherOrderService {

	private final OrderTaking orderTaking;

	/**
	 * Create a new service.
	 * @param orderTaking the check-then-insert of an order
	 */
	public VoucherOrderService(OrderTaking orderTaking) {
		this.orderTaking = orderTaking;
	}

	/**
	 * Order a voucher for a user.
	 * @param voucherId the voucher id
	 * @param userId the user id
	 * @return the order
	 * @throws dev.distlock.LockAcquisitionException if another request of the same user
	 * holds the lock for longer than {@code sample.orders.lock-wait}
	 * @throws dev.distlock.LockLostAfterCompletionException if the order committed but
	 * the lock was found lost when released; the order is its result
	 * @throws dev.distlock.LockReleaseFailedException if the order committed but Redis
	 * failed while the lock was released; the order is its result
	 * @throws dev.distlock.DistributedLockException otherwise if Redis failed or the lock
	 * was lost before the commit: nothing was ordered
	 * @throws UnknownVoucherException if the voucher does not exist
	 * @throws OrderRejectedException if the order is refused
	 */
	@DistributedLock(key = "'order:' + #userId", waitTime = "${sample.orders.lock-wait:0}")
	@Transactional
	public VoucherOrder order(long voucherId, long userId) {
		long fencingToken = CurrentLock.get().fencingToken();
		return this.orderTaking.take(voucherId, userId, fencingToken);
	}

}
