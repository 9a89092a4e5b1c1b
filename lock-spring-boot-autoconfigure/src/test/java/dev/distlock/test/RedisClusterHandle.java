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

package dev.distlock.test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis Cluster of masters without replicas, made of {@code redis-server} processes a
 * test started; the hash slots are split evenly.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisClusterHandle implements AutoCloseable {

	private static final int SLOTS = 16384;

	private final List<RedisServerProcess> nodes;

	private RedisClusterHandle(List<RedisServerProcess> nodes) {
		this.nodes = nodes;
	}

	static RedisClusterHandle start(Path binary, int masters) {
		List<RedisServerProcess> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < masters; i++) {
				nodes.add(RedisServerProcess.startOnFreePort(binary, "--cluster-enabled", "yes",
						"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"));
			}
			RedisClusterHandle cluster = new RedisClusterHandle(nodes);
			cluster.assignSlotsAndMeet();
			cluster.awaitState("ok");
			return cluster;
		}
		catch (IOException | RuntimeException ex) {
			nodes.forEach(RedisServerProcess::close);
			throw new IllegalStateException("Could not form a Redis Cluster of " + masters + " masters", ex);
		}
	}

	/**
	 * Return the endpoints of the cluster's nodes.
	 * @return the node endpoints
	 */
	public List<RedisEndpoint> endpoints() {
		return this.nodes.stream().map(RedisServerProcess::endpoint).toList();
	}

	private void assignSlotsAndMeet() throws IOException {
		int perNode = SLOTS / this.nodes.size();
		for (int i = 0; i < this.nodes.size(); i++) {
			int first = i * perNode;
			int last = (i == this.nodes.size() - 1) ? SLOTS - 1 : first + perNode - 1;
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			for (int slot = first; slot <= last; slot++) {
				command.add(Integer.toString(slot));
			}
			try (RespConnection node = new RespConnection(this.nodes.get(i).endpoint())) {
				node.call(command);
			}
		}
		try (RespConnection first = new RespConnection(this.nodes.get(0).endpoint())) {
			for (RedisServerProcess other : this.nodes.subList(1, this.nodes.size())) {
				first.call(
						List.of("CLUSTER", "MEET", other.endpoint().host(), Integer.toString(other.endpoint().port())));
			}
		}
	}

	private void awaitState(String state) throws IOException {
		long deadline = System.nanoTime() + 30_000_000_000L;
		for (RedisServerProcess node : this.nodes) {
			try (RespConnection connection = new RespConnection(node.endpoint())) {
				while (!connection.call(List.of("CLUSTER", "INFO")).contains("cluster_state:" + state)) {
					if (System.nanoTime() - deadline > 0) {
						throw new IllegalStateException("Cluster never reached state " + state);
					}
					sleep();
				}
			}
		}
	}

	private static void sleep() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while forming the cluster", ex);
		}
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServerProcess::close);
	}

}
