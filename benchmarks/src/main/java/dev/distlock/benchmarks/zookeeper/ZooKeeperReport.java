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

package dev.distlock.benchmarks.zookeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.distlock.benchmarks.report.Outcome;
import dev.distlock.benchmarks.workload.Rotation;

/**
 * Renders the Markdown results of a ZooKeeper run: the provenance line, a summary of each
 * scenario (medians of the rounds, ratio, target and verdict), then every round's figure
 * with the ensemble's requests per grant and the load average beside it.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ZooKeeperReport {

	private final String machine;

	private final String settings;

	/**
	 * Create a report.
	 * @param machine the machine, described
	 * @param settings the run's rounds and phases, described
	 */
	ZooKeeperReport(String machine, String settings) {
		this.machine = machine;
		this.settings = settings;
	}

	/**
	 * Render the results.
	 * @param commit the commit measured
	 * @param started when the run started
	 * @param finished when it finished
	 * @param loadAverages the load average (1 min) at the start and end of the run
	 * @param results each scenario's outcome per library: the figures of its rounds, in
	 * the order of the rounds, or why there are none
	 * @return the Markdown
	 */
	String render(String commit, Instant started, Instant finished, String loadAverages,
			Map<ZooKeeperScenario, Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>>> results) {
		Duration duration = Duration.between(started, finished);
		StringBuilder out = new StringBuilder("# ZooKeeper benchmark results\n\n");
		out.append("Provenance: commit ")
			.append(commit)
			.append("; date ")
			.append(started.toString(), 0, 10)
			.append("; duration ")
			.append(duration.toMinutes())
			.append(" min ")
			.append(duration.toSecondsPart())
			.append(" s; machine ")
			.append(this.machine)
			.append(", load average at start / end ")
			.append(loadAverages)
			.append("\n\n");
		out.append(
				"A three-server ensemble (Curator `TestingCluster`, real servers writing with fsync) in a JVM of its "
						+ "own, started ")
			.append(started)
			.append("; ")
			.append(this.settings)
			.append(". Ratio: distlock divided by Curator. Requests per grant: the requests the servers received "
					+ "(`srvr` \"Received\", summed over the servers) over the whole measurement, connecting and "
					+ "warm-up included, divided by the grants over the same span.\n\n");
		out.append("| Scenario | distlock grants/s | Curator grants/s | Ratio | p99 wait ms, distlock / Curator | "
				+ "requests per grant, distlock / Curator | Target | Verdict |\n|---|---|---|---|---|---|---|---|\n");
		results.forEach((scenario, outcomes) -> summary(out, scenario, outcomes));
		out.append("\nMedians of the rounds. Every round takes the libraries in a rotated order.\n\n");
		out.append(
				"| Scenario | Round | Library | grants/s | wait p99 ms | requests per grant | load average start / end |\n"
						+ "|---|---|---|---|---|---|---|\n");
		results.forEach((scenario, outcomes) -> outcomes.forEach((contender, outcome) -> {
			List<ZooKeeperFigure> figures = outcome.value();
			if (figures == null) {
				out.append("| ")
					.append(scenario.title())
					.append(" | | ")
					.append(contender.label())
					.append(" | ")
					.append(outcome.format(String::valueOf))
					.append(" | | | |\n");
				return;
			}
			for (int round = 0; round < figures.size(); round++) {
				ZooKeeperFigure figure = figures.get(round);
				out.append(String.format(Locale.ROOT, "| %s | %d | %s | %.0f | %.1f | %.2f | %s |%n", scenario.title(),
						round + 1, contender.label(), figure.grantsPerSecond(), figure.p99WaitMillis(),
						figure.requestsPerGrant(), figure.loadAverages()));
			}
		}));
		return out.toString();
	}

	private static void summary(StringBuilder out, ZooKeeperScenario scenario,
			Map<ZooKeeperContender, Outcome<List<ZooKeeperFigure>>> outcomes) {
		Outcome<List<ZooKeeperFigure>> ours = outcomes.getOrDefault(ZooKeeperContender.DISTLOCK,
				Outcome.failed("not run"));
		Outcome<List<ZooKeeperFigure>> theirs = outcomes.getOrDefault(ZooKeeperContender.CURATOR,
				Outcome.failed("not run"));
		out.append("| ").append(scenario.title()).append(" | ");
		if (ours.value() == null || theirs.value() == null) {
			out.append(ours.format((figures) -> grants(figures)))
				.append(" | ")
				.append(theirs.format((figures) -> grants(figures)))
				.append(" | | | | ")
				.append(scenario.describeTarget())
				.append(" | **NOT MEASURED** |\n");
			return;
		}
		double ratio = median(ours.value(), ZooKeeperFigure::grantsPerSecond)
				/ Math.max(median(theirs.value(), ZooKeeperFigure::grantsPerSecond), 1e-9);
		double ourWait = median(ours.value(), ZooKeeperFigure::p99WaitMillis);
		double theirWait = median(theirs.value(), ZooKeeperFigure::p99WaitMillis);
		boolean pass = ratio >= scenario.target() && (!scenario.lowerP99Wait() || ourWait < theirWait);
		out.append(grants(ours.value()))
			.append(" | ")
			.append(grants(theirs.value()))
			.append(String.format(Locale.ROOT, " | %.2fx | %.1f / %.1f | %.2f / %.2f | ", ratio, ourWait, theirWait,
					median(ours.value(), ZooKeeperFigure::requestsPerGrant),
					median(theirs.value(), ZooKeeperFigure::requestsPerGrant)))
			.append(scenario.describeTarget())
			.append(pass ? " | **PASS** |\n" : " | **MISS** |\n");
	}

	private static String grants(List<ZooKeeperFigure> figures) {
		return String.format(Locale.ROOT, "%.0f", median(figures, ZooKeeperFigure::grantsPerSecond));
	}

	private static double median(List<ZooKeeperFigure> figures, ToDoubleFunction<ZooKeeperFigure> figure) {
		return Rotation.median(figures.stream().map(figure::applyAsDouble).toList());
	}

}
