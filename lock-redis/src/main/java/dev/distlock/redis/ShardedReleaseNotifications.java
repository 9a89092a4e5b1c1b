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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.distlock.store.LockStore.Subscription;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Release notifications over sharded pub/sub (Redis 7+ Cluster, Lettuce): the release
 * script publishes with {@code SPUBLISH}, which the Cluster delivers within the channel's
 * shard only, and each waited-for channel is subscribed with {@code SSUBSCRIBE} on the
 * node that serves its slot. Subscribing and unsubscribing run in the background, never
 * on a waiting caller's thread; a channel stays subscribed for a linger after its last
 * waiter left, so hand-offs do not pay a round trip each. Every confirmation of a
 * subscription, first or after a reconnect, wakes that channel's waiters to re-check.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ShardedReleaseNotifications implements ReleaseNotifications {

	/**
	 * The command a release publishes with (sharded pub/sub).
	 */
	static final String SPUBLISH = "spublish";

	private static final Log logger = LogFactory.getLog(ShardedReleaseNotifications.class);

	private final RedisClusterClient clusterClient;

	private final long lingerNanos;

	private final ChannelListeners listeners = new ChannelListeners();

	private final Map<String, String> subscribedNodes = new ConcurrentHashMap<>();

	private final Map<String, Long> idleSince = new ConcurrentHashMap<>();

	private final ScheduledExecutorService executor;

	private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private volatile boolean closed;

	ShardedReleaseNotifications(RedisClusterClient clusterClient, Duration linger, String name) {
		this.clusterClient = clusterClient;
		this.lingerNanos = linger.toNanos();
		this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, name + "-sharded-pubsub");
			thread.setDaemon(true);
			return thread;
		});
		this.executor.scheduleWithFixedDelay(this::unsubscribeIdle, this.lingerNanos, this.lingerNanos,
				TimeUnit.NANOSECONDS);
	}

	@Override
	public Subscription subscribe(String channel, @Nullable String waiter, Consumer<@Nullable String> action) {
		ChannelListeners.Listener listener = new ChannelListeners.Listener(waiter, action);
		this.listeners.add(channel, listener);
		this.idleSince.remove(channel);
		if (!this.subscribedNodes.containsKey(channel)) {
			this.executor.execute(() -> ssubscribe(channel));
		}
		return () -> {
			if (this.listeners.remove(channel, listener)) {
				this.idleSince.put(channel, System.nanoTime());
			}
		};
	}

	@Override
	public String publishCommand() {
		return SPUBLISH;
	}

	private void ssubscribe(String channel) {
		if (this.closed || this.subscribedNodes.containsKey(channel) || !this.listeners.has(channel)) {
			return;
		}
		try {
			StatefulRedisClusterPubSubConnection<String, String> pubSub = connection();
			RedisClusterNode node = pubSub.getPartitions().getPartitionBySlot(SlotHash.getSlot(channel));
			if (node == null) {
				return;
			}
			pubSub.getConnection(node.getNodeId()).async().ssubscribe(channel);
			this.subscribedNodes.put(channel, node.getNodeId());
		}
		catch (RuntimeException ex) {
			logger.debug("Could not subscribe to shard channel " + channel + "; waiters re-check on a timer", ex);
		}
	}

	private void unsubscribeIdle() {
		long now = System.nanoTime();
		this.idleSince.forEach((channel, since) -> {
			if (now - since >= this.lingerNanos && !this.listeners.has(channel)
					&& this.idleSince.remove(channel, since)) {
				String nodeId = this.subscribedNodes.remove(channel);
				StatefulRedisClusterPubSubConnection<String, String> pubSub = this.connection;
				if (nodeId != null && pubSub != null) {
					try {
						pubSub.getConnection(nodeId).async().sunsubscribe(channel);
					}
					catch (RuntimeException ex) {
						logger.debug("Could not unsubscribe from shard channel " + channel, ex);
					}
				}
			}
		});
	}

	private StatefulRedisClusterPubSubConnection<String, String> connection() {
		StatefulRedisClusterPubSubConnection<String, String> pubSub = this.connection;
		if (pubSub == null) {
			pubSub = this.clusterClient.connectPubSub(StringCodec.UTF8);
			pubSub.setNodeMessagePropagation(true);
			pubSub.addListener(new RedisClusterPubSubAdapter<>() {

				@Override
				public void smessage(RedisClusterNode node, String channel, String message) {
					ShardedReleaseNotifications.this.listeners.wake(channel, message);
				}

				@Override
				public void ssubscribed(RedisClusterNode node, String channel, long count) {
					ShardedReleaseNotifications.this.listeners.wake(channel);
				}

			});
			this.connection = pubSub;
		}
		return pubSub;
	}

	@Override
	public void close() {
		this.closed = true;
		this.executor.shutdownNow();
		StatefulRedisClusterPubSubConnection<String, String> pubSub = this.connection;
		if (pubSub != null) {
			pubSub.closeAsync();
		}
	}

}
