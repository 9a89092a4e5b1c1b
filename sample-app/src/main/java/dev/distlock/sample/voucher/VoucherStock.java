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

import java.time.Duration;
import java.util.List;

import dev.distlock.LockAcquisitionException;
import dev.distlock.NoSegmentAvailableException;
import dev.distlock.core.LockClient;
import dev.distlock.core.SegmentHold;
import dev.distlock.annotation.SegmentKeys;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Takes one voucher from the stock in the caller's transaction. A voucher without stock
 * locks (1 segment, the default) keeps its stock in its own row, decremented by a
 * conditional {@code UPDATE}. A voucher with stock locks (every segmented voucher, and a
 * voucher of 1 segment created with {@code "stockLocks": true}) keeps it in segment rows:
 * an order locks one segment that still has stock, whichever is free
 * ({@link LockClient#acquireAny}), decrements that segment's row, and keeps the segment
 * locked until the transaction ends. A segment found empty (another order emptied it
 * since the stock was read) is released as empty ({@link SegmentHold#releaseEmpty()}), so
 * that the orders of this instance queued for it move on to the others at once, and the
 * order moves on to another.
 *
 * @author distlock
 * @since 0.1.0
 */
@Component
public class VoucherStock {

	private static final Log logger = LogFactory.getLog(VoucherStock.class);

	/**
	 * The name of the segment locks in metrics and traces.
	 */
	static final String SEGMENT_LOCK_NAME = "VoucherStock.segment";

	private final VoucherRepository vouchers;

	private final LockClient lockClient;

	private final Duration segmentWait;

	/**
	 * Create a new instance.
	 * @param vouchers the vouchers
	 * @param lockClient the lock client
	 * @param segmentWait how long an order waits when every segment with stock is locked
	 */
	public VoucherStock(VoucherRepository vouchers, LockClient lockClient,
			@Value("${sample.orders.segment-wait:10s}") Duration segmentWait) {
		this.vouchers = vouchers;
		this.lockClient = lockClient;
		this.segmentWait = segmentWait;
	}

	/**
	 * Take one voucher from the stock, in the caller's transaction.
	 * @param voucher the voucher
	 * @return whether one was taken: {@code false} only when no segment has stock left
	 * @throws LockAcquisitionException if every segment with stock stayed locked for the
	 * segment wait
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public boolean takeOne(Voucher voucher) {
		if (!voucher.stockLocks()) {
			return this.vouchers.takeOne(voucher.id());
		}
		List<String> keys = SegmentKeys.of("voucher-stock:" + voucher.id(), voucher.segments());
		while (true) {
			List<Integer> stock = this.vouchers.segmentStock(voucher.id());
			SegmentHold hold;
			try {
				hold = this.lockClient.acquireAny(SEGMENT_LOCK_NAME, keys, (segment) -> stock.get(segment) > 0,
						this.segmentWait, null);
			}
			catch (NoSegmentAvailableException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new LockAcquisitionException(keys.get(0), this.segmentWait, ex);
			}
			if (takeFromSegment(voucher, hold)) {
				return true;
			}
		}
	}

	/**
	 * Decrement the held segment's row; keep the segment locked until the transaction
	 * ends if it had stock, else release it at once as empty.
	 */
	private boolean takeFromSegment(Voucher voucher, SegmentHold hold) {
		boolean taken;
		try {
			taken = this.vouchers.takeOneFromSegment(voucher.id(), hold.segment());
		}
		catch (RuntimeException ex) {
			hold.release();
			throw ex;
		}
		if (!taken) {
			hold.releaseEmpty();
			return false;
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

			@Override
			public void afterCompletion(int status) {
				hold.releaseAsync().whenComplete((released, failure) -> {
					if (failure != null) {
						logger.warn("Segment lock " + hold.key() + " was not released cleanly; the row's "
								+ "conditional update kept the stock right", failure);
					}
				});
			}

		});
		return true;
	}

}
