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

import java.util.List;
import java.util.stream.LongStream;

import dev.distlock.benchmarks.zookeeper.ZooKeeperContender.Access;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZooKeeperScenario}: which lock each operation takes, and the targets.
 *
 * @author distlock
 * @since 0.1.0
 */
class ZooKeeperScenarioTests {

	@Test
	void theReadHeavyScenarioReadsNineTimesAndWritesOnceInEveryTen() {
		List<Access> accesses = LongStream.range(0, 20).mapToObj(ZooKeeperScenario.READ_HEAVY::access).toList();
		assertThat(accesses).filteredOn(Access.WRITE::equals).hasSize(2);
		assertThat(accesses).filteredOn(Access.READ::equals).hasSize(18);
		assertThat(accesses.get(9)).isEqualTo(Access.WRITE);
		assertThat(accesses.get(19)).isEqualTo(Access.WRITE);
	}

	@Test
	void theOtherScenariosTakeTheExclusiveLock() {
		for (ZooKeeperScenario scenario : List.of(ZooKeeperScenario.UNCONTENDED_1, ZooKeeperScenario.UNCONTENDED_16,
				ZooKeeperScenario.CONTENDED, ZooKeeperScenario.FAIR_CONTENDED)) {
			assertThat(LongStream.range(0, 20).mapToObj(scenario::access)).containsOnly(Access.EXCLUSIVE);
		}
	}

	@Test
	void statesTheTargetsOfTheIssue() {
		assertThat(ZooKeeperScenario.UNCONTENDED_1.describeTarget()).isEqualTo(">= 1.0x Curator's InterProcessMutex");
		assertThat(ZooKeeperScenario.UNCONTENDED_16.describeTarget()).isEqualTo(">= 1.0x Curator's InterProcessMutex");
		assertThat(ZooKeeperScenario.CONTENDED.describeTarget())
			.isEqualTo(">= 1.5x Curator's InterProcessMutex with a lower p99 wait");
		assertThat(ZooKeeperScenario.FAIR_CONTENDED.describeTarget()).isEqualTo(">= 1.0x Curator's InterProcessMutex");
		assertThat(ZooKeeperScenario.READ_HEAVY.describeTarget())
			.isEqualTo(">= 1.0x Curator's InterProcessReadWriteLock");
		assertThat(ZooKeeperScenario.FAIR_CONTENDED.fair()).isTrue();
		assertThat(ZooKeeperScenario.CONTENDED.contended()).isTrue();
		assertThat(ZooKeeperScenario.UNCONTENDED_16.contended()).isFalse();
	}

}
