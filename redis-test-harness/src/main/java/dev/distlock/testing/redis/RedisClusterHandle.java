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

package dev.distlock.testing.redis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.RedisCommandExecutionException;

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

	private final List<RedisServerProcess> replicas;

	private RedisClusterHandle(List<RedisServerProcess> nodes, List<RedisServerProcess> replicas) {
		this.nodes = nodes;
		this.replicas = replicas;
	}

	static RedisClusterHandle start(Path binary, int masters) {
		return start(binary, masters, 0);
	}

	static RedisClusterHandle start(Path binary, int masters, int replicasPerMaster) {
		List<RedisServerProcess> nodes = new ArrayList<>();
		List<RedisServerProcess> replicas = new ArrayList<>();
		try {
			for (int i = 0; i < masters; i++) {
				nodes.add(startNode(binary));
			}
			for (int i = 0; i < masters * replicasPerMaster; i++) {
				replicas.add(startNode(binary));
			}
			RedisClusterHandle cluster = new RedisClusterHandle(nodes, replicas);
			cluster.assignSlotsAndMeet();
			cluster.attachReplicas(replicasPerMaster);
			cluster.awaitState("ok");
			return cluster;
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisServerProcess::close);
			replicas.forEach(RedisServerProcess::close);
			throw new IllegalStateException("Could not form a Redis Cluster of " + masters + " masters", ex);
		}
	}

	private static RedisServerProcess startNode(Path binary) {
		return RedisServerProcess.startOnFreePort(binary, "--cluster-enabled", "yes", "--cluster-config-file",
				"nodes.conf", "--cluster-node-timeout", "5000");
	}

	/**
	 * Return the replicas, {@code replicasPerMaster} per master in the order of the
	 * masters: the first ones replicate the first master of {@link #endpoints()}.
	 * @return the replica processes, to stop, kill or pause them
	 */
	public List<RedisServerHandle> replicas() {
		return List.copyOf(this.replicas);
	}

	/**
	 * Return the endpoints of the cluster's nodes.
	 * @return the node endpoints
	 */
	public List<RedisEndpoint> endpoints() {
		return this.nodes.stream().map(RedisServerProcess::endpoint).toList();
	}

	private void assignSlotsAndMeet() {
		int perNode = SLOTS / this.nodes.size();
		for (int i = 0; i < this.nodes.size(); i++) {
			int first = i * perNode;
			int last = (i == this.nodes.size() - 1) ? SLOTS - 1 : first + perNode - 1;
			try (AdminConnection node = new AdminConnection(this.nodes.get(i).endpoint())) {
				node.commands().clusterAddSlots(IntStream.rangeClosed(first, last).toArray());
			}
		}
		List<RedisServerProcess> others = new ArrayList<>(this.nodes.subList(1, this.nodes.size()));
		others.addAll(this.replicas);
		try (AdminConnection first = new AdminConnection(this.nodes.get(0).endpoint())) {
			for (RedisServerProcess other : others) {
				first.commands().clusterMeet(other.endpoint().host(), other.endpoint().port());
			}
		}
	}

	private void attachReplicas(int replicasPerMaster) {
		for (int i = 0; i < this.replicas.size(); i++) {
			String masterId;
			try (AdminConnection master = new AdminConnection(this.nodes.get(i / replicasPerMaster).endpoint())) {
				masterId = master.commands().clusterMyId();
			}
			try (AdminConnection replica = new AdminConnection(this.replicas.get(i).endpoint())) {
				long deadline = System.nanoTime() + 30_000_000_000L;
				while (true) {
					try {
						replica.commands().clusterReplicate(masterId);
						break;
					}
					catch (RedisCommandExecutionException ex) {
						// the replica has not heard of its master through the gossip yet
						if (System.nanoTime() - deadline > 0) {
							throw ex;
						}
						sleep();
					}
				}
				while (!replica.commands().info("replication").contains("master_link_status:up")) {
					if (System.nanoTime() - deadline > 0) {
						throw new IllegalStateException("A cluster replica never linked to its master");
					}
					sleep();
				}
			}
		}
	}

	private void awaitState(String state) {
		long deadline = System.nanoTime() + 30_000_000_000L;
		for (RedisServerProcess node : this.nodes) {
			try (AdminConnection connection = new AdminConnection(node.endpoint())) {
				while (!connection.commands().clusterInfo().contains("cluster_state:" + state)) {
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
		this.replicas.forEach(RedisServerProcess::close);
		this.nodes.forEach(RedisServerProcess::close);
	}

}
