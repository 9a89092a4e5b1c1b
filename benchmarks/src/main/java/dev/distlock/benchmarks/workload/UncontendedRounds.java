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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.distlock.benchmarks.RedisEndpoint;
import dev.distlock.benchmarks.contender.Contender;
import dev.distlock.benchmarks.contender.LockContender;
import dev.distlock.benchmarks.report.Outcome;

/**
 * Runs the {@link UncontendedWorkload} in rounds that take the libraries in turn, so a
 * change in the load of a shared machine during the run affects every library alike, and
 * merges the rounds of each library.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class UncontendedRounds {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private final UncontendedWorkload workload;

	private final int rounds;

	/**
	 * Create the rounds.
	 * @param workload the workload of one round
	 * @param rounds how many measured rounds, after one warm-up round
	 */
	public UncontendedRounds(UncontendedWorkload workload, int rounds) {
		this.workload = workload;
		this.rounds = rounds;
	}

	/**
	 * Run every round for some libraries at one thread count.
	 * @param contenders the libraries, in the order of each round
	 * @param endpoint the Redis
	 * @param threads threads per run, each on its own key
	 * @param progress told what is about to run
	 * @return the merged result of each library
	 */
	public Map<Contender, Outcome<Throughput>> run(List<Contender> contenders, RedisEndpoint endpoint, int threads,
			Consumer<String> progress) {
		Map<Contender, Outcome<LockContender>> connected = new EnumMap<>(Contender.class);
		Map<Contender, List<UncontendedWorkload.Run>> samples = new EnumMap<>(Contender.class);
		Map<Contender, Outcome<Throughput>> results = new EnumMap<>(Contender.class);
		try {
			for (Contender contender : contenders) {
				connected.put(contender, Outcome.of(() -> contender.connect(endpoint, LEASE, false)));
				samples.put(contender, new ArrayList<>());
			}
			for (int round = 0; round <= this.rounds; round++) {
				for (Contender contender : contenders) {
					LockContender lock = connected.get(contender).value();
					if (lock != null && !results.containsKey(contender)) {
						progress.accept("uncontended, " + threads + " thread(s), "
								+ ((round > 0) ? "round " + round : "warm-up round") + ": " + contender.label());
						Outcome<UncontendedWorkload.Run> outcome = Outcome
							.of(() -> this.workload.runMeasuringCpu(lock, threads));
						if (outcome.value() == null) {
							results.put(contender, Outcome.failed(String.valueOf(outcome.failure())));
						}
						else if (round > 0) {
							samples.get(contender).add(outcome.value());
						}
					}
				}
			}
		}
		finally {
			connected.values()
				.stream()
				.map(Outcome::value)
				.filter((lock) -> lock != null)
				.forEach(LockContender::close);
		}
		for (Contender contender : contenders) {
			Outcome<LockContender> connection = connected.get(contender);
			if (connection.value() == null) {
				results.put(contender, Outcome.failed(String.valueOf(connection.failure())));
			}
			results.computeIfAbsent(contender, (key) -> Outcome.success(merge(samples.get(contender), threads)));
		}
		return results;
	}

	private Throughput merge(List<UncontendedWorkload.Run> rounds, int threads) {
		long[] all = rounds.stream().flatMapToLong((round) -> Arrays.stream(round.latencies())).toArray();
		double roundSeconds = this.workload.phases().measureSeconds();
		List<Double> perRound = rounds.stream().map((round) -> round.latencies().length / roundSeconds).toList();
		boolean cpuMeasured = rounds.stream().allMatch((round) -> round.cpuNanos() >= 0);
		double cpuPerOp = (cpuMeasured && all.length > 0)
				? rounds.stream().mapToLong(UncontendedWorkload.Run::cpuNanos).sum() / (double) all.length : Double.NaN;
		return new Throughput(threads, all.length / (roundSeconds * rounds.size()), Latency.of(all), perRound,
				cpuPerOp);
	}

}
