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

package dev.distlock.jdbc;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Deletes the rows of locks that ended more than {@link LockStatements#CLEANUP_GRACE}
 * ago: a round every cleanup interval, one statement of at most the cleanup batch size at
 * a time, each on the store's executor, and another as long as they come back full. A
 * round that needed more than {@value #STATEMENTS_BEFORE_WARNING} statements and deleted
 * more rows than the round before logs a warning: rows of ended locks pile up faster than
 * one round's usual work.
 *
 * @author distlock
 */
final class LockTableCleanup {

	private static final Log logger = LogFactory.getLog(LockTableCleanup.class);

	/**
	 * How many statements a round may need before a growing backlog is worth a warning.
	 */
	static final int STATEMENTS_BEFORE_WARNING = 10;

	private final Function<Callable<Integer>, CompletionStage<Integer>> executor;

	private final Batch batch;

	private final int batchSize;

	private volatile int lastRoundDeleted;

	LockTableCleanup(Batch batch, int batchSize, Function<Callable<Integer>, CompletionStage<Integer>> executor) {
		this.batch = batch;
		this.batchSize = batchSize;
		this.executor = executor;
	}

	/**
	 * Run a round every {@code interval}, the next one starting {@code interval} after
	 * the last ended.
	 */
	void start(ScheduledExecutorService timer, Duration interval) {
		schedule(timer, interval);
	}

	private void schedule(ScheduledExecutorService timer, Duration interval) {
		try {
			timer.schedule(() -> round().whenComplete((deleted, failure) -> {
				if (failure != null) {
					logger.debug("Could not delete the rows of ended JDBC locks", failure);
				}
				schedule(timer, interval);
			}), interval.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// The store is closed
		}
	}

	/**
	 * Run one round: batches until one comes back less than full.
	 * @return how many rows the round deleted
	 */
	CompletionStage<Integer> round() {
		return batches(0, 0);
	}

	private CompletionStage<Integer> batches(int deletedSoFar, int statements) {
		return this.executor.apply(() -> this.batch.delete(this.batchSize)).thenCompose((deleted) -> {
			int total = deletedSoFar + deleted;
			if (deleted >= this.batchSize) {
				return batches(total, statements + 1);
			}
			roundEnded(total, statements + 1);
			return CompletableFuture.completedFuture(total);
		});
	}

	private void roundEnded(int deleted, int statements) {
		int before = this.lastRoundDeleted;
		this.lastRoundDeleted = deleted;
		if (statements > STATEMENTS_BEFORE_WARNING && deleted > before) {
			logger.warn("The JDBC lock store deleted " + deleted + " rows of ended locks in " + statements
					+ " statements, more than the " + before + " of the round before: rows of ended locks pile up. "
					+ "Raise distlock.jdbc.cleanup-batch-size or lower distlock.jdbc.cleanup-interval.");
		}
	}

	/**
	 * One statement of the cleanup.
	 */
	@FunctionalInterface
	interface Batch {

		/**
		 * Delete at most {@code batchSize} rows of ended locks, and return how many were.
		 */
		int delete(int batchSize) throws Exception;

	}

}
