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

package dev.distlock.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.distlock.faults.Cycle.Release;
import org.jspecify.annotations.Nullable;

/**
 * What one run of a scenario came to.
 *
 * @param cycles how many holds the workload completed
 * @param overlapPairs pairs of holds of one key whose holders believed at the same time
 * @param overlappedHolders holders that still believed while another holder had been
 * granted the same key
 * @param undetected overlapped holders that were never told, nor saw, that they had lost
 * the lock
 * @param detectionMillis for each overlapped holder that learned of the loss, how long
 * after the other holder's grant
 * @param lostHolds holds whose release found the lock lost
 * @param fencedLostUpdates updates the fenced row lost
 * @param unfencedLostUpdates updates the unfenced row lost
 * @param recoveryMillis from the fault to the first grant to a holder other than the
 * victim that then completed normally, if any
 * @author distlock
 */
record RunOutcome(int cycles, int overlapPairs, int overlappedHolders, int undetected, List<Long> detectionMillis,
		int lostHolds, long fencedLostUpdates, long unfencedLostUpdates, @Nullable Long recoveryMillis) {

	/**
	 * Analyse the holds of one run.
	 * @param cycles the holds
	 * @param faultAt when the fault was injected ({@link System#nanoTime()}), or 0
	 * @param fencedLostUpdates updates the fenced rows lost
	 * @param unfencedLostUpdates updates the unfenced rows lost
	 * @return the outcome
	 */
	static RunOutcome of(List<Cycle> cycles, long faultAt, long fencedLostUpdates, long unfencedLostUpdates) {
		Map<String, List<Cycle>> byKey = new LinkedHashMap<>();
		for (Cycle cycle : cycles) {
			byKey.computeIfAbsent(cycle.key(), (key) -> new ArrayList<>()).add(cycle);
		}
		int pairs = 0;
		int overlapped = 0;
		int undetected = 0;
		List<Long> detection = new ArrayList<>();
		for (List<Cycle> holds : byKey.values()) {
			holds.sort(Comparator.comparingLong(Cycle::acquiredAt));
			for (int i = 0; i < holds.size(); i++) {
				Cycle holder = holds.get(i);
				long firstIntruder = 0;
				for (int j = i + 1; j < holds.size() && holds.get(j).acquiredAt() < holder.beliefEnd(); j++) {
					pairs++;
					if (firstIntruder == 0) {
						firstIntruder = holds.get(j).acquiredAt();
					}
				}
				if (firstIntruder != 0) {
					overlapped++;
					if (holder.lossDetected()) {
						detection.add(TimeUnit.NANOSECONDS.toMillis(holder.beliefEnd() - firstIntruder));
					}
					else {
						undetected++;
					}
				}
			}
		}
		int lost = (int) cycles.stream().filter((cycle) -> cycle.release() == Release.LOST).count();
		Long recovery = null;
		if (faultAt != 0) {
			recovery = cycles.stream()
				.filter((cycle) -> !cycle.victim() && cycle.acquiredAt() > faultAt
						&& cycle.release() == Release.RELEASED)
				.map((cycle) -> TimeUnit.NANOSECONDS.toMillis(cycle.acquiredAt() - faultAt))
				.min(Long::compare)
				.orElse(null);
		}
		return new RunOutcome(cycles.size(), pairs, overlapped, undetected, detection, lost, fencedLostUpdates,
				unfencedLostUpdates, recovery);
	}

}
