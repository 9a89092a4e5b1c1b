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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.distlock.sample.voucher.OrderRejectedException.Reason;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The check-then-insert of an order: sale window, one order per user, then the stock
 * decrement, the rest of the order's work, and the insert. On its own it is not safe
 * against concurrent orders of the same user (the check and the insert race); callers run
 * it under the user's lock, inside their transaction.
 *
 * @author distlock
 * @since 0.1.0
 */
@Component
public class OrderTaking {

	private final VoucherRepository vouchers;

	private final VoucherOrderRepository orders;

	private final Clock clock;

	private final VoucherStock stock;

	private final Duration work;

	/**
	 * Create a new instance.
	 * @param vouchers the vouchers
	 * @param orders the orders
	 * @param clock the clock for the sale window and the order time
	 * @param stock takes one voucher from the stock, of one segment for a segmented
	 * voucher
	 * @param work the time an order spends in its transaction after the stock was taken
	 * and before the order is inserted ({@code sample.orders.work}, default 0): it stands
	 * for the rest of a real order's transaction, such as a payment reservation or audit
	 * rows, while the stock stays taken (its row, and its segment lock if any, held)
	 */
	public OrderTaking(VoucherRepository vouchers, VoucherOrderRepository orders, Clock clock, VoucherStock stock,
			@Value("${sample.orders.work:0ms}") Duration work) {
		this.vouchers = vouchers;
		this.orders = orders;
		this.clock = clock;
		this.stock = stock;
		this.work = work;
	}

	/**
	 * Place an order in the caller's transaction.
	 * @param voucherId the voucher id
	 * @param userId the user id
	 * @param fencingToken the fencing token to record
	 * @return the order
	 * @throws UnknownVoucherException if the voucher does not exist
	 * @throws OrderRejectedException if the sale is not open, the user already ordered or
	 * the voucher is sold out
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public VoucherOrder take(long voucherId, long userId, long fencingToken) {
		Voucher voucher = this.vouchers.find(voucherId).orElseThrow(() -> new UnknownVoucherException(voucherId));
		Instant now = this.clock.instant();
		if (now.isBefore(voucher.beginTime())) {
			throw new OrderRejectedException(Reason.NOT_STARTED,
					"The sale of voucher " + voucherId + " begins at " + voucher.beginTime());
		}
		if (!now.isBefore(voucher.endTime())) {
			throw new OrderRejectedException(Reason.ENDED,
					"The sale of voucher " + voucherId + " ended at " + voucher.endTime());
		}
		if (this.orders.exists(voucherId, userId)) {
			throw new OrderRejectedException(Reason.ALREADY_ORDERED,
					"User " + userId + " already ordered voucher " + voucherId);
		}
		if (!this.stock.takeOne(voucher)) {
			throw new OrderRejectedException(Reason.SOLD_OUT, "Voucher " + voucherId + " is sold out");
		}
		work();
		return this.orders.insert(voucherId, userId, now, fencingToken);
	}

	/**
	 * Spend the configured work time: the simulated rest of the order's transaction.
	 */
	private void work() {
		if (this.work.isZero() || this.work.isNegative()) {
			return;
		}
		try {
			Thread.sleep(this.work.toMillis(), this.work.toNanosPart() % 1_000_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted during the order's work; the order rolls back", ex);
		}
	}

}
