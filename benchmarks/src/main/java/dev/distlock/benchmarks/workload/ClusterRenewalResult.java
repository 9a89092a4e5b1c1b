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
import java.util.List;

/**
 * Outcome of the cluster renewal workload: every renewal round the watchdog sent while
 * the locks were held, and the renewal scripts each Cluster master ran meanwhile.
 *
 * @param locks how many locks were held at once
 * @param masters how many masters the Cluster had
 * @param interval the watchdog's renewal interval
 * @param rounds the measured renewal rounds, in order
 * @param scriptsPerNode {@code EVALSHA} + {@code EVAL} calls per master over the measured
 * window, from {@code INFO commandstats}
 * @author distlock
 * @since 0.1.0
 */
public record ClusterRenewalResult(int locks, int masters, Duration interval, List<Round> rounds,
		List<Long> scriptsPerNode) {

	/**
	 * Return the duration of the slowest measured round.
	 * @return the duration, zero without rounds
	 */
	public Duration worstRound() {
		return this.rounds.stream().map(Round::duration).max(Duration::compareTo).orElse(Duration.ZERO);
	}

	/**
	 * Return the duration of the slowest measured round divided by the renewal interval.
	 * @return the ratio
	 */
	public double worstRatio() {
		return ratio(worstRound());
	}

	/**
	 * Return a round's duration divided by the renewal interval.
	 * @param duration the round's duration
	 * @return the ratio
	 */
	public double ratio(Duration duration) {
		return duration.toNanos() / (double) this.interval.toNanos();
	}

	/**
	 * Return the leases found lost or not renewed (store failure or timeout) over all
	 * measured rounds.
	 * @return the count
	 */
	public long lostOrFailed() {
		return this.rounds.stream().mapToLong((round) -> round.lost() + round.failed()).sum();
	}

	/**
	 * Return the scripts all masters ran over the measured window.
	 * @return the count
	 */
	public long scripts() {
		return this.scriptsPerNode.stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * Return the scripts all masters ran per measured round.
	 * @return the count, zero without rounds
	 */
	public double scriptsPerRound() {
		return this.rounds.isEmpty() ? 0 : scripts() / (double) this.rounds.size();
	}

	/**
	 * One renewal round: the batches the watchdog sent together.
	 *
	 * @param batches how many batches the round had
	 * @param leases leases the round asked to renew
	 * @param renewed leases renewed
	 * @param lost leases found lost
	 * @param failed leases not renewed (store failure or timeout)
	 * @param duration the longest batch duration of the round, from the round's start
	 */
	public record Round(int batches, int leases, int renewed, int lost, int failed, Duration duration) {

	}

}
