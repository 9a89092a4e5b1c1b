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
import java.util.List;
import java.util.Objects;

/**
 * The runs of one scenario (or one variant of it) and how they add up to a row of the
 * results table.
 *
 * @author distlock
 */
final class ScenarioResult {

	private final String name;

	private final List<RunOutcome> runs = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	ScenarioResult(String name) {
		this.name = name;
	}

	String name() {
		return this.name;
	}

	void add(RunOutcome run) {
		this.runs.add(run);
	}

	void note(String note) {
		this.notes.add(note);
	}

	List<RunOutcome> runs() {
		return this.runs;
	}

	int runsWithOverlap() {
		return (int) this.runs.stream().filter((run) -> run.overlapPairs() > 0).count();
	}

	int overlapPairs() {
		return this.runs.stream().mapToInt(RunOutcome::overlapPairs).sum();
	}

	int lostHolds() {
		return this.runs.stream().mapToInt(RunOutcome::lostHolds).sum();
	}

	int runsWithALostHold() {
		return (int) this.runs.stream().filter((run) -> run.lostHolds() > 0).count();
	}

	long fencedLostUpdates() {
		return this.runs.stream().mapToLong(RunOutcome::fencedLostUpdates).sum();
	}

	long unfencedLostUpdates() {
		return this.runs.stream().mapToLong(RunOutcome::unfencedLostUpdates).sum();
	}

	int runsWithUnfencedLoss() {
		return (int) this.runs.stream().filter((run) -> run.unfencedLostUpdates() > 0).count();
	}

	int overlappedHolders() {
		return this.runs.stream().mapToInt(RunOutcome::overlappedHolders).sum();
	}

	int undetected() {
		return this.runs.stream().mapToInt(RunOutcome::undetected).sum();
	}

	List<Long> detectionMillis() {
		return this.runs.stream().flatMap((run) -> run.detectionMillis().stream()).sorted().toList();
	}

	List<Long> recoveryMillis() {
		return this.runs.stream().map(RunOutcome::recoveryMillis).filter(Objects::nonNull).sorted().toList();
	}

	int cycles() {
		return this.runs.stream().mapToInt(RunOutcome::cycles).sum();
	}

	/**
	 * Return the row of the results table.
	 * @return the cells
	 */
	List<String> row() {
		List<Long> detection = detectionMillis();
		List<Long> recovery = recoveryMillis();
		String detected = (overlappedHolders() == 0) ? "-" : (overlappedHolders() - undetected()) + " of "
				+ overlappedHolders() + (detection.isEmpty() ? "" : ", within " + range(detection));
		return List.of(this.name, Integer.toString(this.runs.size()), Integer.toString(cycles()),
				runsWithOverlap() + " (" + overlapPairs() + ")", runsWithALostHold() + " (" + lostHolds() + ")",
				Long.toString(fencedLostUpdates()), runsWithUnfencedLoss() + " (" + unfencedLostUpdates() + ")",
				detected, recovery.isEmpty() ? "-" : range(recovery), String.join("; ", this.notes));
	}

	private static String range(List<Long> sortedMillis) {
		long median = sortedMillis.get(sortedMillis.size() / 2);
		long max = sortedMillis.get(sortedMillis.size() - 1);
		return (sortedMillis.size() == 1) ? max + " ms" : median + " / " + max + " ms";
	}

}
