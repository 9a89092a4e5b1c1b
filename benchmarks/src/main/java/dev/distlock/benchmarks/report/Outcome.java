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

package dev.distlock.benchmarks.report;

import java.util.concurrent.Callable;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The result of one measurement, or why it could not be taken.
 *
 * @param <T> the result type
 * @param value the result, {@code null} when the measurement failed
 * @param failure why the measurement failed or does not apply, {@code null} when it
 * succeeded
 * @param applicable whether the measurement applies to the library at all
 * @author distlock
 * @since 0.1.0
 */
public record Outcome<T>(@Nullable T value, @Nullable String failure, boolean applicable) {

	/**
	 * Take a measurement, turning a failure into an outcome that explains it.
	 * @param <T> the result type
	 * @param measurement the measurement
	 * @return the outcome
	 */
	public static <T> Outcome<T> of(Callable<T> measurement) {
		try {
			return success(measurement.call());
		}
		catch (Exception | LinkageError ex) {
			Throwable cause = ex;
			while (cause.getCause() != null && cause.getCause() != cause) {
				cause = cause.getCause();
			}
			return failed(cause.getClass().getSimpleName() + ": " + cause.getMessage());
		}
	}

	/**
	 * Return the outcome of a successful measurement.
	 * @param <T> the result type
	 * @param value the result
	 * @return the outcome
	 */
	public static <T> Outcome<T> success(T value) {
		return new Outcome<>(value, null, true);
	}

	/**
	 * Return the outcome of a failed measurement.
	 * @param <T> the result type
	 * @param failure why it failed
	 * @return the outcome
	 */
	public static <T> Outcome<T> failed(String failure) {
		return new Outcome<>(null, failure, true);
	}

	/**
	 * Return an outcome for a measurement that does not apply.
	 * @param <T> the result type
	 * @param reason why it does not apply
	 * @return the outcome
	 */
	public static <T> Outcome<T> notApplicable(String reason) {
		return new Outcome<>(null, reason, false);
	}

	/**
	 * Format the value, the failure as "not measurable" or why it does not apply as
	 * "n/a".
	 * @param formatter how to format a value
	 * @return the text for a table cell
	 */
	public String format(Function<T, String> formatter) {
		if (this.value != null) {
			return formatter.apply(this.value);
		}
		return (this.applicable ? "not measurable: " : "n/a: ") + cell(this.failure);
	}

	private static String cell(@Nullable String text) {
		return String.valueOf(text).replace('|', '/').replace('\n', ' ');
	}

}
