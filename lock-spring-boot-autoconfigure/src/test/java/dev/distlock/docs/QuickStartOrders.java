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

package dev.distlock.docs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The README's {@code OrderService} of step 4, with the same annotation, whose first call
 * waits (as the quick starts' {@code Thread.sleep}) until the test lets it return.
 *
 * @author distlock
 */
public class QuickStartOrders {

	private final CountDownLatch entered = new CountDownLatch(1);

	private final CountDownLatch mayReturn = new CountDownLatch(1);

	/**
	 * Place an order under the lock of the user; the first call waits until
	 * {@link #finishFirstCall()}.
	 * @param userId the user
	 * @param voucherId the voucher
	 * @return the voucher
	 * @throws InterruptedException if interrupted while waiting
	 */
	@DistributedLock(key = "'order:' + #userId", waitTime = "2s")
	public long placeOrder(long userId, long voucherId) throws InterruptedException {
		if (this.entered.getCount() > 0) {
			this.entered.countDown();
			assertThat(this.mayReturn.await(30, TimeUnit.SECONDS)).isTrue();
		}
		return voucherId;
	}

	/**
	 * Let the first call return.
	 */
	public void finishFirstCall() {
		this.mayReturn.countDown();
	}

	/**
	 * Wait until the first call runs under its lock.
	 * @return whether it does within 30 seconds
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean awaitFirstCall() throws InterruptedException {
		return this.entered.await(30, TimeUnit.SECONDS);
	}

	/**
	 * Run the quick start's step 5 in an application: a first call holds the lock while
	 * {@code whileHeld} runs the README's check, and a second call is refused with the
	 * README's message; once the first returns, the next call runs.
	 * @param context the application
	 * @param quickStart the README's quick start
	 * @param whileHeld the equivalent of the README's command, run while the lock is held
	 * @throws Exception if a step fails
	 */
	static void seeTheLockWork(AssertableApplicationContext context, ReadmeQuickStart quickStart,
			ThrowingRunnable whileHeld) throws Exception {
		assertThat(context).hasNotFailed();
		QuickStartOrders orders = context.getBean(QuickStartOrders.class);
		ExecutorService caller = Executors.newSingleThreadExecutor();
		Future<Long> first = caller.submit(() -> orders.placeOrder(1, 7));
		try {
			if (!orders.awaitFirstCall()) {
				throw new AssertionError("The first call did not run: " + first.get(30, TimeUnit.SECONDS));
			}
			whileHeld.run();
			assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.placeOrder(1, 8))
				.withMessage(quickStart.refusal());
		}
		finally {
			orders.finishFirstCall();
			caller.shutdown();
		}
		assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(7);
		assertThat(orders.placeOrder(1, 9)).isEqualTo(9);
	}

	/**
	 * A step that may throw.
	 */
	interface ThrowingRunnable {

		void run() throws Exception;

	}

}
