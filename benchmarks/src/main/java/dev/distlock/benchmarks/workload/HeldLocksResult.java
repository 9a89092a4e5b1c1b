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

package dev.distlock.benchmarks.workload;

import java.util.Map;

/**
 * Outcome of the held-locks workload.
 *
 * @param locks how many locks were held at once
 * @param stillHeld how many of them Redis still held after the counting window (all of
 * them, if renewal worked)
 * @param roundTripsPerRound commands clients sent per renewal interval while nothing but
 * renewal ran
 * @param commands those commands by name, over the whole window
 * @param extraThreads threads alive while holding the locks beyond those alive before
 * @param heapBytesPerLock retained heap per held lock, after garbage collection
 * @author distlock
 * @since 0.1.0
 */
public record HeldLocksResult(int locks, long stillHeld, double roundTripsPerRound, Map<String, Long> commands,
		int extraThreads, double heapBytesPerLock) {

}
