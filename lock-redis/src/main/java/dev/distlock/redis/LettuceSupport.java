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
package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What {@link RedisLockStore} does only with a {@link LettuceConnectionFactory}, kept out
 * of the store's own signatures and lambdas: this class is loaded only when Lettuce is on
 * the classpath, so that an application with Jedis and without Lettuce starts.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LettuceSupport {

	private LettuceSupport() {
	}

	static boolean isLettuce(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory;
	}

	static boolean isCluster(RedisConnectionFactory connectionFactory) {
		return ((LettuceConnectionFactory) connectionFactory).isClusterAware();
	}

	static ScriptExecutor executor(RedisConnectionFactory connectionFactory, Executor connector) {
		return new LettuceScriptExecutor((LettuceConnectionFactory) connectionFactory, connector);
	}

	/**
	 * Return the id of the master serving {@code slot} in the cluster view of the
	 * factory's client (loaded when the client first connected, which a watched lease's
	 * grant did).
	 * @param connectionFactory the Lettuce factory of a Cluster
	 * @param slot the hash slot
	 * @return the master's node id, or {@code null} if the view does not know the slot
	 */
	static @Nullable String masterOf(RedisConnectionFactory connectionFactory, int slot) {
		Object nativeClient = ((LettuceConnectionFactory) connectionFactory).getNativeClient();
		if (!(nativeClient instanceof RedisClusterClient clusterClient)) {
			return null;
		}
		RedisClusterNode master = clusterClient.getPartitions().getPartitionBySlot(slot);
		return (master != null) ? master.getNodeId() : null;
	}

	/**
	 * Return how releases are published on a Lettuce Cluster: sharded pub/sub on Redis
	 * 7+, else {@code otherwise}; {@code null} off a Cluster.
	 * @param connectionFactory the Lettuce factory
	 * @param majorVersion asks a node for the server's major version
	 * @param linger how long a shard channel's subscription lingers after its last
	 * listener
	 * @param name the store's name, for thread names
	 * @param otherwise the classic notifications
	 * @return the decision, or {@code null} off a Cluster
	 */
	static @Nullable CompletableFuture<ReleaseNotifications> clusterNotifications(
			RedisConnectionFactory connectionFactory, Supplier<CompletableFuture<Integer>> majorVersion,
			Duration linger, String name, Supplier<ReleaseNotifications> otherwise) {
		LettuceConnectionFactory lettuce = (LettuceConnectionFactory) connectionFactory;
		Object nativeClient = lettuce.isClusterAware() ? lettuce.getNativeClient() : null;
		if (!(nativeClient instanceof RedisClusterClient clusterClient)) {
			return null;
		}
		return majorVersion.get()
			.thenApply((major) -> (major >= 7) ? new ShardedReleaseNotifications(clusterClient, linger, name)
					: otherwise.get());
	}

}
