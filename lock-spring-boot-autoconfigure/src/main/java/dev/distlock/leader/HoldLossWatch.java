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

package dev.distlock.leader;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockHold;

/**
 * Tells a {@link LeaderCampaign} when its leader lock is lost, the one place that knows
 * how: it reads {@link LockHold#isValid()} every {@link #PERIOD}, which turns false as
 * soon as the client recorded a loss (taken, forced, closed, maximum hold) or the local
 * view of the lease ran out (renewals failing). It costs no store request.
 *
 * @author distlock
 */
final class HoldLossWatch {

	/**
	 * How often the hold is checked.
	 */
	static final Duration PERIOD = Duration.ofMillis(10);

	private final ScheduledFuture<?> check;

	private HoldLossWatch(LockHold hold, ScheduledExecutorService scheduler, Runnable onLoss) {
		Runnable check = new Runnable() {

			private boolean reported;

			@Override
			public void run() {
				if (!this.reported && !hold.isValid()) {
					this.reported = true;
					onLoss.run();
				}
			}

		};
		long period = PERIOD.toNanos();
		this.check = scheduler.scheduleWithFixedDelay(check, period, period, TimeUnit.NANOSECONDS);
	}

	/**
	 * Watch {@code hold}, calling {@code onLoss} once, on {@code scheduler}, when it is
	 * found lost.
	 * @param hold the hold to watch
	 * @param scheduler where the checks and {@code onLoss} run
	 * @param onLoss what to do when the hold is lost
	 * @return the watch, to {@link #cancel()} when the hold ends otherwise
	 */
	static HoldLossWatch start(LockHold hold, ScheduledExecutorService scheduler, Runnable onLoss) {
		return new HoldLossWatch(hold, scheduler, onLoss);
	}

	/**
	 * Stop watching.
	 */
	void cancel() {
		this.check.cancel(false);
	}

}
