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

package dev.distlock.sample.load;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one configuration of a hot-item run: many users, one order each, for one
 * voucher with a large stock.
 * <ul>
 * <li>A <em>false sold-out</em> is a {@code sold-out} answer while stock remained: every
 * sold-out when stock is left at the end, else each sold-out answered before an order
 * sent after that answer succeeded (that order found stock the sold-out had been told was
 * gone).</li>
 * <li><em>Stranded</em> stock is the stock left at the end while some user got
 * sold-out.</li>
 * <li><em>Oversold</em> counts orders beyond the stock plus a negative stock left.</li>
 * <li><em>Store requests per order</em> is the growth of Redis'
 * {@code total_commands_processed} over the configuration divided by the orders created:
 * every Redis command of both locks, the user's and the segment's, of every request,
 * sold-out ones too.</li>
 * </ul>
 *
 * @param configuration how the stock was taken
 * @param stock the initial stock
 * @param users how many users sent one order each
 * @param ordersCreated orders in the database afterwards
 * @param soldOuts {@code 409 sold-out} answers
 * @param falseSoldOuts sold-out answers while stock remained
 * @param finalStock stock left at the end
 * @param otherFailures answers neither {@code 201} nor {@code sold-out}, and requests
 * without an answer
 * @param orderLatencyNanos latency of every {@code 201} answer
 * @param elapsed time from the first request to the last answer
 * @param storeCommands Redis commands processed during the configuration, or {@code null}
 * when not counted
 * @author distlock
 * @since 0.1.0
 */
public record HotItemResult(HotItemConfiguration configuration, int stock, int users, int ordersCreated, int soldOuts,
		int falseSoldOuts, int finalStock, int otherFailures, long[] orderLatencyNanos, Duration elapsed,
		@Nullable Long storeCommands) {

	/**
	 * Count the false sold-outs among the answers.
	 * @param answers every answer of the configuration
	 * @param finalStock the stock left at the end
	 * @return the number of sold-out answers given while stock remained
	 */
	public static int falseSoldOuts(List<Answer> answers, int finalStock) {
		if (finalStock > 0) {
			return (int) answers.stream().filter((answer) -> answer.outcome() == Outcome.SOLD_OUT).count();
		}
		long lastCreatedSent = answers.stream()
			.filter((answer) -> answer.outcome() == Outcome.CREATED)
			.mapToLong(Answer::sentNanos)
			.max()
			.orElse(Long.MIN_VALUE);
		return (int) answers.stream()
			.filter((answer) -> answer.outcome() == Outcome.SOLD_OUT && answer.answeredNanos() < lastCreatedSent)
			.count();
	}

	/**
	 * Return the orders created per second.
	 * @return the throughput
	 */
	public double ordersPerSecond() {
		return this.ordersCreated / Math.max(this.elapsed.toNanos() / 1e9, 1e-9);
	}

	/**
	 * Return a latency percentile of the orders created.
	 * @param percentile the percentile, for example {@code 99}
	 * @return the latency, zero when no order was created
	 */
	public Duration latency(double percentile) {
		if (this.orderLatencyNanos.length == 0) {
			return Duration.ZERO;
		}
		long[] sorted = this.orderLatencyNanos.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percentile / 100 * sorted.length) - 1;
		return Duration.ofNanos(sorted[Math.max(0, Math.min(index, sorted.length - 1))]);
	}

	/**
	 * Return the orders beyond the stock plus a negative stock left.
	 * @return the oversold count, 0 when right
	 */
	public int oversold() {
		return Math.max(0, this.ordersCreated - this.stock) + Math.max(0, -this.finalStock);
	}

	/**
	 * Return the stock left at the end while some user got sold-out.
	 * @return the stranded stock, 0 when right
	 */
	public int stranded() {
		return (this.soldOuts > 0) ? Math.max(0, this.finalStock) : 0;
	}

	/**
	 * Return the Redis commands per order created.
	 * @return the store requests per order, or {@code null} when not counted or no order
	 * was created
	 */
	public @Nullable Double storeRequestsPerOrder() {
		if (this.storeCommands == null || this.ordersCreated == 0) {
			return null;
		}
		return (double) this.storeCommands / this.ordersCreated;
	}

	/**
	 * What an order was answered.
	 */
	public enum Outcome {

		/**
		 * {@code 201}: the order was created.
		 */
		CREATED,

		/**
		 * {@code 409 sold-out}.
		 */
		SOLD_OUT,

		/**
		 * Any other answer, or none.
		 */
		OTHER

	}

	/**
	 * One answer to an order.
	 *
	 * @param sentNanos when the order was sent, {@link System#nanoTime()}
	 * @param answeredNanos when it was answered
	 * @param outcome the answer
	 */
	public record Answer(long sentNanos, long answeredNanos, Outcome outcome) {

	}

}
