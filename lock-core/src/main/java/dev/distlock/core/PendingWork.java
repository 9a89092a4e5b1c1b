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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Counts the work of a client that must end before its store is closed: acquisitions
 * under way (their requests in flight) and releases sent in the background, retries
 * included; and tells when none is left.
 *
 * @author distlock
 * @since 0.1.0
 */
final class PendingWork {

	private int count;

	private List<CompletableFuture<Void>> idle = new ArrayList<>();

	/**
	 * Count one more piece of work, until {@link #end()}.
	 */
	synchronized void begin() {
		this.count++;
	}

	/**
	 * Count one piece of work less, telling those waiting if it was the last.
	 */
	void end() {
		List<CompletableFuture<Void>> waiting;
		synchronized (this) {
			if (--this.count > 0) {
				return;
			}
			waiting = this.idle;
			this.idle = new ArrayList<>();
		}
		waiting.forEach((ended) -> ended.complete(null));
	}

	/**
	 * Count {@code stage} as work until it completes; call before anything that would end
	 * the work {@code stage} follows on from, so that the count never drops to zero
	 * between them.
	 * @param <T> the result type
	 * @param stage the work
	 * @return {@code stage}
	 */
	<T extends @Nullable Object> CompletionStage<T> track(CompletionStage<T> stage) {
		begin();
		stage.whenComplete((result, failure) -> end());
		return stage;
	}

	/**
	 * Return a future completed when no work is left.
	 * @return completed at once if none is left now
	 */
	synchronized CompletableFuture<Void> ended() {
		if (this.count == 0) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Void> ended = new CompletableFuture<>();
		this.idle.add(ended);
		return ended;
	}

}
