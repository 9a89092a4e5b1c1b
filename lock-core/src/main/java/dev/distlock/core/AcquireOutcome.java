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

import java.util.Locale;
import java.util.concurrent.CancellationException;

import org.jspecify.annotations.Nullable;

/**
 * How an acquisition ended.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockTracker
 */
public enum AcquireOutcome {

	/**
	 * The lock was granted.
	 */
	ACQUIRED,

	/**
	 * The lock stayed held elsewhere for the whole wait time; or, for one of several
	 * segments, every segment the caller waited for was found empty by its holder, and
	 * the caller runs its filter again on fresh stock (a new acquisition, tracked anew).
	 */
	BUSY,

	/**
	 * The store failed or timed out (or the client was closed): the caller got an
	 * exception and holds nothing.
	 */
	ERROR,

	/**
	 * The caller gave up: its thread was interrupted while waiting, or it cancelled a
	 * non-blocking acquisition.
	 */
	INTERRUPTED;

	/**
	 * Return the outcome of an acquisition that gave up.
	 * @param failure why: {@code null} when busy, {@link SegmentsEmptied}, a
	 * cancellation, an interruption, or a failure
	 * @return the outcome
	 */
	static AcquireOutcome of(@Nullable Throwable failure) {
		if (failure == null || failure instanceof SegmentsEmptied) {
			return BUSY;
		}
		return (failure instanceof CancellationException || failure instanceof InterruptedException) ? INTERRUPTED
				: ERROR;
	}

	/**
	 * Return the lower-case name used as a metric tag, for example {@code "busy"}.
	 * @return the tag value
	 */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT);
	}

}
