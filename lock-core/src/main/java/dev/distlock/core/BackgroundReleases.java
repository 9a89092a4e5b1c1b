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

package dev.distlock.core;

import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The releases a client sends without a caller waiting for them: grants given back, and
 * releases the store failed, sent again after each of {@link #RETRIES} so that a lock
 * does not stay taken for its whole lease. Each counts as {@link PendingWork} until it is
 * done; when the client closes, a release waiting for its next retry is sent at once, and
 * none is retried after that.
 *
 * @author distlock
 * @since 0.1.0
 */
final class BackgroundReleases {

	private static final Log logger = LogFactory.getLog(BackgroundReleases.class);

	/**
	 * How long to wait before sending a failed release again, once per entry.
	 */
	static final List<Duration> RETRIES = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));

	private final ScheduledExecutorService timer;

	private final PendingWork pending;

	private final AtomicBoolean closed = new AtomicBoolean();

	/** The releases waiting for their next retry. */
	private final Set<Retry> waiting = ConcurrentHashMap.newKeySet();

	BackgroundReleases(ScheduledExecutorService timer, PendingWork pending) {
		this.timer = timer;
		this.pending = pending;
	}

	/**
	 * Release {@code token} in the store: an owner-checked release that only ever frees a
	 * lock this token still holds, sent again if the store fails it.
	 * @return the store's answer, or its last failure
	 */
	CompletionStage<Boolean> release(LockEntry entry, String token) {
		this.pending.begin();
		CompletionStage<Boolean> released = send(entry, token, 0);
		released.whenComplete((done, failure) -> this.pending.end());
		return released;
	}

	/**
	 * Release {@code token} again after the store failed a release the application asked
	 * for: as a release whose first request failed, but not before {@code notBeforeNanos}
	 * from now.
	 */
	void releaseAgain(LockEntry entry, String token, Throwable failure, long notBeforeNanos) {
		this.pending.track(retry(entry, token, 0, failure, notBeforeNanos));
	}

	/**
	 * Send every release waiting for its next retry at once, and retry none after this.
	 */
	void close() {
		this.closed.set(true);
		List.copyOf(this.waiting).forEach(Retry::run);
	}

	private CompletionStage<Boolean> send(LockEntry entry, String token, int retries) {
		return Stages.send(() -> entry.ownership.release(entry.key, token))
			.handle((released, failure) -> (failure == null) ? CompletableFuture.completedFuture(released)
					: retry(entry, token, retries, failure, 0))
			.thenCompose((stage) -> stage);
	}

	private CompletionStage<Boolean> retry(LockEntry entry, String token, int retries, Throwable failure,
			long notBeforeNanos) {
		if (retries < RETRIES.size() && !this.closed.get()) {
			Retry retry = new Retry(entry, token, retries + 1);
			this.waiting.add(retry);
			try {
				this.timer.schedule(retry, Math.max(notBeforeNanos, RETRIES.get(retries).toNanos()),
						TimeUnit.NANOSECONDS);
				if (this.closed.get()) {
					// Closed while it was scheduled: close() may not have seen it
					retry.run();
				}
				return retry.result;
			}
			catch (RejectedExecutionException ex) {
				// Closed meanwhile: the lock expires with its lease
				this.waiting.remove(retry);
			}
		}
		logger.warn("Could not release lock '" + LogSafe.escape(entry.key) + "'; it expires with its lease",
				Stages.unwrap(failure));
		return CompletableFuture.failedFuture(Stages.unwrap(failure));
	}

	/**
	 * One release waiting to be sent again: sent once, by the timer or by the close.
	 */
	private final class Retry implements Runnable {

		private final LockEntry entry;

		private final String token;

		private final int retries;

		private final CompletableFuture<Boolean> result = new CompletableFuture<>();

		private final AtomicBoolean sent = new AtomicBoolean();

		Retry(LockEntry entry, String token, int retries) {
			this.entry = entry;
			this.token = token;
			this.retries = retries;
		}

		@Override
		public void run() {
			if (this.sent.compareAndSet(false, true)) {
				BackgroundReleases.this.waiting.remove(this);
				Stages.forward(send(this.entry, this.token, this.retries), this.result);
			}
		}

	}

}
