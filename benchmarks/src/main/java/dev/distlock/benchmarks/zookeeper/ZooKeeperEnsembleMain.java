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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.apache.curator.test.TestingCluster;

/**
 * The ZooKeeper ensemble of the benchmark, in a JVM of its own so that the servers' CPU
 * and JIT are not the measuring JVM's: starts a three-server Curator
 * {@code TestingCluster} (real servers, writing to disk with fsync), prints
 * {@value #CONNECT_PREFIX} and its connect string on a line of standard output, and stops
 * it when its standard input ends (the measuring JVM closed it, or ended).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ZooKeeperEnsembleMain {

	/** What the line with the connect string starts with. */
	static final String CONNECT_PREFIX = "CONNECT ";

	private static final int SERVERS = 3;

	private ZooKeeperEnsembleMain() {
	}

	/**
	 * Run the ensemble until standard input ends.
	 * @param args not used
	 * @throws Exception if the ensemble cannot start
	 */
	public static void main(String[] args) throws Exception {
		try (TestingCluster cluster = new TestingCluster(SERVERS)) {
			cluster.start();
			System.out.println(CONNECT_PREFIX + cluster.getConnectString());
			System.out.flush();
			BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			while (stdin.readLine() != null) {
				// wait for the end of standard input
			}
		}
		System.exit(0);
	}

}
