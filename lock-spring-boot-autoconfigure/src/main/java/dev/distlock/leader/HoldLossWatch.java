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

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.distlock.core.LockHold;

/**
 * Tells a {@link LeaderCampaign} when its leader lock is lost, the one place that knows
 * how: it follows {@link LockHold#whenLost()}, which the client completes as soon as it
 * records a loss (taken, forced, closed, maximum hold, session expired) or the local view
 * of the lease runs out while renewals fail. It costs no store request and no polling,
 * and a normal release never triggers it.
 *
 * @author distlock
 */
final class HoldLossWatch {

	private volatile boolean cancelled;

	private HoldLossWatch(LockHold hold, Executor scheduler, Runnable onLoss) {
		hold.whenLost().thenRun(() -> {
			try {
				scheduler.execute(() -> {
					if (!this.cancelled) {
						onLoss.run();
					}
				});
			}
			catch (RejectedExecutionException ex) {
				// Stopped meanwhile: the stop revokes the term itself
			}
		});
	}

	/**
	 * Watch {@code hold}, calling {@code onLoss} once, on {@code scheduler}, when it is
	 * found lost, unless the watch was cancelled by then.
	 * @param hold the hold to watch
	 * @param scheduler where {@code onLoss} runs
	 * @param onLoss what to do when the hold is lost
	 * @return the watch, to {@link #cancel()} when the hold ends otherwise
	 */
	static HoldLossWatch start(LockHold hold, Executor scheduler, Runnable onLoss) {
		return new HoldLossWatch(hold, scheduler, onLoss);
	}

	/**
	 * Stop watching.
	 */
	void cancel() {
		this.cancelled = true;
	}

}
