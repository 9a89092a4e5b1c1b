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

package dev.distlock.store;

import java.time.Duration;

/**
 * The timing of the writer-waiting mark of read-write locks, one figure each for every
 * store (a store's scripts receive them as arguments, the in-memory store reads them
 * here).
 * <p>
 * A writer refused by readers for the first time marks the key as pending and is told to
 * try again after at most {@link #PENDING_WRITER_RECHECK}, so that, if it waits, it turns
 * its mark into a real writer-waiting mark soon; while that mark lives, new readers are
 * refused, so a stream of readers cannot starve writers. The mark lives for
 * {@link #WRITER_WAITING} unless the writer, trying again, sets it anew.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReadWriteTiming {

	/**
	 * How soon a writer refused by readers for the first time is told to try again.
	 */
	public static final Duration PENDING_WRITER_RECHECK = Duration.ofMillis(20);

	/**
	 * How long a writer's mark that it waits for readers lives unless the writer sets it
	 * anew: longer than the client's longest re-check interval (one second), so new
	 * readers back off for as long as a writer waits, and for at most this long after it
	 * gave up.
	 */
	public static final Duration WRITER_WAITING = Duration.ofSeconds(2);

	private ReadWriteTiming() {
	}

}
