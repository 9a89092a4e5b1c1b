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

/**
 * The bound on the work one step of a fair queue does, one figure for every store (the a
 * store's scripts receive it as an argument, the in-memory store reads it here).
 * <p>
 * A waiter that leaves the queue is removed at once; one that disappears without leaving
 * (a crashed client) stays in the queue until its alive time runs out and is then dropped
 * when it reaches the head. One step (a release, a fair attempt, a leave) drops at most
 * {@link #GONE_WAITERS_PER_STEP} such entries, so its cost stays bounded however many
 * waiters disappeared; the next steps drop the rest.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class FairQueueLimits {

	/**
	 * The most gone waiters one step of a fair queue drops from its head.
	 */
	public static final int GONE_WAITERS_PER_STEP = 100;

	private FairQueueLimits() {
	}

}
