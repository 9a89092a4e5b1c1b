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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The measured critical sections of all worker processes in the order they were entered,
 * from which waits, hand-offs and overlaps are read.
 *
 * @author distlock
 * @since 0.1.0
 */
final class HoldTimeline {

	private final List<Hold> holds = new ArrayList<>();

	HoldTimeline(List<HoldEvents> processes) {
		for (int process = 0; process < processes.size(); process++) {
			HoldEvents events = processes.get(process);
			for (int i = 0; i < events.acquired().length; i++) {
				this.holds.add(new Hold(process, events.requested()[i], events.acquired()[i], events.releasing()[i]));
			}
		}
		this.holds.sort(Comparator.comparingLong(Hold::acquired));
	}

	int holds() {
		return this.holds.size();
	}

	Latency waits() {
		return Latency.of(this.holds.stream().mapToLong((hold) -> hold.acquired() - hold.requested()).toArray());
	}

	/**
	 * Return the hand-offs: from a holder starting to release to the next holder holding,
	 * where the next holder asked before the release began.
	 * @param crossProcessOnly whether to count only hand-offs to another process
	 * @return the hand-off latencies
	 */
	Latency handoffs(boolean crossProcessOnly) {
		LongList handoffs = new LongList();
		for (int i = 1; i < this.holds.size(); i++) {
			Hold previous = this.holds.get(i - 1);
			Hold next = this.holds.get(i);
			boolean waiting = next.requested() < previous.releasing();
			if (waiting && (!crossProcessOnly || next.process() != previous.process())) {
				handoffs.add(next.acquired() - previous.releasing());
			}
		}
		return Latency.of(handoffs.toArray());
	}

	double crossProcessShare() {
		int all = handoffs(false).samples();
		return (all > 0) ? handoffs(true).samples() / (double) all : 0;
	}

	/**
	 * Return how many holds were granted after a hold that asked later: in grant order, a
	 * hold is overtaken when some hold granted before it had asked more than a tolerance
	 * after it did. Every thread is a caller of its own, in the same JVM or not (a fair
	 * lock queues each waiting thread in Redis), and the asking times of all processes
	 * are on the same clock. The tolerance covers the time between asking and reaching
	 * the lock's queue in Redis, which a reading taken before the call cannot see.
	 * @param toleranceNanos how much later the overtaking hold must have asked
	 * @return the number of overtaken holds
	 */
	long overtaken(long toleranceNanos) {
		long overtaken = 0;
		long latestRequest = Long.MIN_VALUE;
		for (Hold hold : this.holds) {
			if (latestRequest > hold.requested() && latestRequest - hold.requested() > toleranceNanos) {
				overtaken++;
			}
			latestRequest = Math.max(latestRequest, hold.requested());
		}
		return overtaken;
	}

	/**
	 * Return by how much the furthest overtaking hold asked later than the hold it
	 * overtook.
	 * @return the largest margin in nanoseconds, 0 when no hold was overtaken
	 */
	long largestOvertaking() {
		long largest = 0;
		long latestRequest = Long.MIN_VALUE;
		for (Hold hold : this.holds) {
			if (latestRequest > hold.requested()) {
				largest = Math.max(largest, latestRequest - hold.requested());
			}
			latestRequest = Math.max(latestRequest, hold.requested());
		}
		return largest;
	}

	/**
	 * Return how many critical sections began before an earlier one ended.
	 * @return the number of overlaps, 0 under mutual exclusion
	 */
	long overlaps() {
		long overlaps = 0;
		long latestRelease = Long.MIN_VALUE;
		for (Hold hold : this.holds) {
			if (hold.acquired() < latestRelease) {
				overlaps++;
			}
			latestRelease = Math.max(latestRelease, hold.releasing());
		}
		return overlaps;
	}

	private record Hold(int process, long requested, long acquired, long releasing) {

	}

}
