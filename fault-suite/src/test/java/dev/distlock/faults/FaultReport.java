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

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.testing.RunProvenance;

/**
 * The results table of one run of the suite, in Markdown: one row per scenario (or
 * variant), printed to stdout and written to
 * {@code fault-suite/target/fault-suite/results-<tier>.md}.
 *
 * @author distlock
 */
final class FaultReport {

	private static final List<String> HEADER = List.of("Scenario", "Runs", "Holds", "Belief overlaps: runs (pairs)",
			"Lost holds: runs (holds)", "Fenced row: lost updates", "Unfenced row: runs (lost updates)",
			"Overlapped holders told of the loss (median / max after the overlap began)", "Recovery (median / max)",
			"Notes");

	private final Tier tier;

	private final String redisVersion;

	private final List<ScenarioResult> results = new ArrayList<>();

	private final Instant started = Instant.now();

	FaultReport(Tier tier, String redisVersion) {
		this.tier = tier;
		this.redisVersion = redisVersion;
	}

	synchronized void add(ScenarioResult result) {
		this.results.add(result);
	}

	/**
	 * Return the provenance line the documentation check reads
	 * ({@code Provenance: commit <hash>; date <yyyy-mm-dd>; duration <time>; machine <description>}).
	 * @param commit the commit the run measured
	 * @param finished when the run finished
	 * @return the line
	 */
	String provenance(String commit, Instant finished) {
		return "Provenance: commit " + commit + "; date " + LocalDate.ofInstant(finished, ZoneOffset.UTC)
				+ "; duration " + ChronoUnit.SECONDS.between(this.started, finished) + " s; machine "
				+ Runtime.getRuntime().availableProcessors() + " CPUs, " + System.getProperty("java.vm.name") + " "
				+ System.getProperty("java.version") + ", Redis " + this.redisVersion + " on loopback.";
	}

	synchronized String toMarkdown() {
		StringBuilder out = new StringBuilder();
		out.append("# distlock fault-injection suite: ").append(this.tier.name().toLowerCase()).append(" tier\n\n");
		out.append(provenance(RunProvenance.commit(), Instant.now())).append("\n\n");
		out.append("Run ")
			.append(this.started.truncatedTo(ChronoUnit.SECONDS))
			.append(", ")
			.append(ChronoUnit.SECONDS.between(this.started, Instant.now()))
			.append(" s; ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" CPUs, load average ")
			.append(String.format("%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()))
			.append(" at the end; ")
			.append(System.getProperty("java.vm.name"))
			.append(' ')
			.append(System.getProperty("java.version"))
			.append("; Redis ")
			.append(this.redisVersion)
			.append(" on loopback.\n\n");
		appendRow(out, HEADER);
		appendRow(out, HEADER.stream().map((cell) -> "---").toList());
		for (ScenarioResult result : this.results) {
			appendRow(out, result.row());
		}
		out.append(
				"""

						- Holds: locks granted to the workload in all runs. Each worker repeats: acquire, claim the fenced row with \
						the fencing token, read both rows, work, check `LockHold.isValid()`, write both rows (value + 1), release.
						- Belief overlap: two holds of one key whose holders both believed they held it at one moment \
						(`System.nanoTime()`, one clock for every process of the host); a belief ends when the holder sees its hold \
						invalid or lost, or starts to release it.
						- Lost hold: the release said the lock had been lost (`LockLostException`).
						- Lost updates: accepted writes less the row's final value. The fenced row accepts a write only from the \
						token that last claimed it, and a claim only from a higher token.
						- Told of the loss: the overlapped holder saw `isValid()` turn false or its release threw \
						`LockLostException`; the delay is from the other holder's grant to that moment.
						- Recovery: from the fault to the first grant to another holder than the one hit by the fault that then \
						completed its hold normally.
						""");
		return out.toString();
	}

	void write(Path directory) {
		try {
			Files.createDirectories(directory);
			Files.writeString(directory.resolve("results-" + this.tier.name().toLowerCase() + ".md"), toMarkdown());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not write the results to " + directory, ex);
		}
	}

	private static void appendRow(StringBuilder out, List<String> cells) {
		out.append("| ").append(String.join(" | ", cells)).append(" |\n");
	}

}
