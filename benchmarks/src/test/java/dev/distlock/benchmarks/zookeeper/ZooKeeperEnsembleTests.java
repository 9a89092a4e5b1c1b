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

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ZooKeeperEnsemble}'s reading of the servers and their {@code srvr}
 * answers.
 *
 * @author distlock
 * @since 0.1.0
 */
class ZooKeeperEnsembleTests {

	@Test
	void readsTheRequestsReceivedFromTheAnswerToSrvr() {
		String srvr = """
				Zookeeper version: 3.9.2-e454e8c7283100c7caec6dcae2bc82aaecb63023, built on 2024-02-12 20:59 UTC
				Latency min/avg/max: 0/1.2345/57
				Received: 48213
				Sent: 48210
				Connections: 5
				Outstanding: 0
				Zxid: 0x10000a3f1
				Mode: follower
				Node count: 42
				""";
		assertThat(ZooKeeperEnsemble.received(srvr)).isEqualTo(48213);
	}

	@Test
	void refusesAnAnswerWithoutTheCount() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ZooKeeperEnsemble.received("srvr is not executed because it is not in the whitelist.\n"))
			.withMessageContaining("not in the whitelist");
	}

	@Test
	void readsEveryServerOfTheConnectString() {
		assertThat(ZooKeeperEnsemble.servers("127.0.0.1:40001,127.0.0.1:40002, localhost:40003")).containsExactly(
				InetSocketAddress.createUnresolved("127.0.0.1", 40001),
				InetSocketAddress.createUnresolved("127.0.0.1", 40002),
				InetSocketAddress.createUnresolved("localhost", 40003));
	}

}
