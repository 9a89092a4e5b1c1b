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

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * What one renewal call of the watchdog to the store did.
 *
 * @param leases how many leases the batch asked to renew
 * @param renewed how many were renewed
 * @param lost how many were found lost (expired or owned by another)
 * @param failed how many the store could not renew (failure or timeout)
 * @param duration how long the call took
 * @param finishedAt when it ended
 * @param failure the exception the call threw, if it threw
 * @author distlock
 * @since 0.1.0
 */
public record RenewalBatch(int leases, int renewed, int lost, int failed, Duration duration, Instant finishedAt,
		@Nullable Throwable failure) {

	/**
	 * Return the outcome of the batch: {@link Outcome#ERROR} if any lease could not be
	 * renewed, else {@link Outcome#LOST} if any was found lost, else
	 * {@link Outcome#RENEWED}.
	 * @return the outcome
	 */
	public Outcome outcome() {
		if (this.failure != null || this.failed > 0) {
			return Outcome.ERROR;
		}
		return (this.lost > 0) ? Outcome.LOST : Outcome.RENEWED;
	}

	/**
	 * Return a one-line description of a failed batch, for logs and health details.
	 * @return the description
	 */
	public String describe() {
		String text = this.renewed + " of " + this.leases + " lease(s) renewed, " + this.lost + " lost, " + this.failed
				+ " not renewed (store failure or timeout)";
		return (this.failure != null) ? text + ": " + this.failure : text;
	}

	/**
	 * The outcome of a renewal batch.
	 */
	public enum Outcome {

		/**
		 * Every lease was renewed.
		 */
		RENEWED,

		/**
		 * At least one lease was found lost; none failed.
		 */
		LOST,

		/**
		 * The store could not renew at least one lease.
		 */
		ERROR;

		/**
		 * Return the lower-case name used as a metric tag, for example {@code "renewed"}.
		 * @return the tag value
		 */
		public String tagValue() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
