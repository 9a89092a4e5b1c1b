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
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

import dev.distlock.core.LockStore;
import dev.distlock.core.Stages;
import dev.distlock.LockBackendException;
import dev.distlock.core.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * {@link LockStore} on Redis, through the application's {@link StringRedisTemplate}
 * (standalone, Sentinel or Cluster; Lettuce or Jedis).
 * <ul>
 * <li>Acquire is one script: {@code SET NX PX} of the owner token and a fencing token
 * that is the larger of the server clock in microseconds and the last grant plus
 * one.</li>
 * <li>Release, renew and the ownership check are owner-checked scripts, so they run on
 * the master even when the application reads from replicas.</li>
 * <li>Renewal runs one script per batch; on a Cluster one per hash slot within the
 * batch.</li>
 * <li>Releases are published on the lock's channel: with {@code SPUBLISH} to the
 * channel's shard on a Redis 7+ Cluster through Lettuce, else with {@code PUBLISH}, heard
 * through one pattern subscription per store.</li>
 * </ul>
 * The lock key, fence key and channel of one lock share a Cluster hash slot (see
 * {@link LockKeys}).
 *
 * @author distlock
 * @since 0.2.0
 */
public final class RedisLockStore implements LockStore {

	private static final Log logger = LogFactory.getLog(RedisLockStore.class);

	/**
	 * Default key prefix.
	 */
	public static final String DEFAULT_KEY_PREFIX = "lock:";

	private static final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.cluster.RedisClusterClient",
			RedisLockStore.class.getClassLoader());

	private static final boolean jedisPresent = ClassUtils.isPresent("redis.clients.jedis.Jedis",
			RedisLockStore.class.getClassLoader());

	private static final Duration SHARD_CHANNEL_LINGER = Duration.ofSeconds(1);

	/**
	 * Stands in until the server has told whether it supports sharded pub/sub: waiters
	 * then re-check on their timer.
	 */
	private static final ReleaseNotifications UNDECIDED = new ReleaseNotifications() {

		@Override
		public Subscription subscribe(String channel, @Nullable String waiter, Runnable listener) {
			return () -> {
			};
		}

		@Override
		public String publishCommand() {
			return "publish";
		}

		@Override
		public void close() {
		}

	};

	private final StringRedisTemplate redis;

	private final RedisConnectionFactory connectionFactory;

	private final String keyPrefix;

	private final String name = "distlock-" + UUID.randomUUID().toString().substring(0, 8);

	private final RedisLockCommands commands;

	private final ReplicaAcknowledgement acknowledgement;

	private final @Nullable AcknowledgedAcquire acknowledgedAcquire;

	private volatile @Nullable Boolean cluster;

	private volatile @Nullable ReleaseNotifications notifications;

	private final RedisLockInspection inspection;

	/**
	 * Create a store with the {@link #DEFAULT_KEY_PREFIX default key prefix}.
	 * @param redis the template to run commands with
	 */
	public RedisLockStore(StringRedisTemplate redis) {
		this(redis, DEFAULT_KEY_PREFIX);
	}

	/**
	 * Create a store.
	 * @param redis the template to run commands with
	 * @param keyPrefix prefix of every Redis key and channel the store uses, for example
	 * {@code "lock:"}; must not contain hash-tag braces
	 */
	public RedisLockStore(StringRedisTemplate redis, String keyPrefix) {
		this(redis, keyPrefix, ReplicaAcknowledgement.none());
	}

	/**
	 * Create a store that reports a grant only once {@code acknowledgement} replicas
	 * acknowledged it (see {@link ReplicaAcknowledgement}). Waiting for replicas needs a
	 * {@link LettuceConnectionFactory} (standalone, Sentinel or Cluster): the store opens
	 * a few connections of its own with the factory's client, so that {@code WAIT} never
	 * blocks the application's shared connection.
	 * @param redis the template to run commands with
	 * @param keyPrefix prefix of every Redis key and channel the store uses, for example
	 * {@code "lock:"}; must not contain hash-tag braces
	 * @param acknowledgement how many replicas must acknowledge a grant, and how long to
	 * wait for them
	 * @throws IllegalStateException if replicas are to be waited for and the template's
	 * connection factory is not a {@link LettuceConnectionFactory}
	 */
	public RedisLockStore(StringRedisTemplate redis, String keyPrefix, ReplicaAcknowledgement acknowledgement) {
		Assert.notNull(redis, "'redis' must not be null");
		Assert.notNull(keyPrefix, "'keyPrefix' must not be null");
		Assert.isTrue(keyPrefix.indexOf('{') < 0 && keyPrefix.indexOf('}') < 0,
				() -> "'keyPrefix' must not contain '{' or '}' (they are used as hash tags), but was '" + keyPrefix
						+ "'");
		this.redis = redis;
		this.connectionFactory = redis.getRequiredConnectionFactory();
		this.keyPrefix = keyPrefix;
		this.commands = new RedisLockCommands(redis, new FirstConnection(redis));
		this.inspection = new RedisLockInspection(redis);
		Assert.notNull(acknowledgement, "'acknowledgement' must not be null");
		this.acknowledgement = acknowledgement;
		this.acknowledgedAcquire = acknowledgement.isEnabled() ? acknowledgedAcquire(acknowledgement) : null;
	}

	/**
	 * Return the prefix of every key and channel of this store.
	 * @return the key prefix
	 */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Return how many replicas must acknowledge a grant before it counts.
	 * @return the replica acknowledgement
	 */
	public ReplicaAcknowledgement replicaAcknowledgement() {
		return this.acknowledgement;
	}

	@Override
	public Set<Capability> capabilities() {
		return (this.acknowledgedAcquire != null)
				? EnumSet.of(Capability.ACQUIRE_ALL, Capability.INSPECT, Capability.FORCE_RELEASE)
				: EnumSet.allOf(Capability.class);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return Stages.now(() -> {
			AcknowledgedAcquire acknowledged = this.acknowledgedAcquire;
			Attempt attempt = (acknowledged != null)
					? acknowledged.tryAcquire(keys(key), token, lease,
							(keys, owner) -> this.commands.release(keys, owner, notifications().publishCommand()))
					: this.commands.tryAcquire(keys(key), token, lease);
			chooseNotificationsQuietly();
			return attempt;
		});
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Readers are stored as a hash under the lock key (reader token to the end of its
	 * lease in server milliseconds), so that the write lock's {@code SET NX} fails while
	 * they hold it.
	 * @throws UnsupportedOperationException if grants must be acknowledged by replicas:
	 * read grants are not
	 */
	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return Stages.now(() -> {
			if (this.acknowledgedAcquire != null) {
				throw new UnsupportedOperationException("Read locks are not acknowledged by replicas; lock '" + key
						+ "' cannot be read-locked while distlock.replication.min-replicas is set");
			}
			Attempt attempt = this.commands.tryAcquireRead(keys(key), token, lease);
			chooseNotificationsQuietly();
			return attempt;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		if (this.acknowledgedAcquire != null) {
			// The acknowledged acquire does not register waiters: they hear every
			// release.
			return tryAcquire(key, token, lease);
		}
		return Stages.now(() -> {
			Attempt attempt = this.commands.tryAcquire(keys(key), token, lease, waiter, waiterTtl);
			chooseNotificationsQuietly();
			return attempt;
		});
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return Stages.now(() -> {
			if (this.acknowledgedAcquire != null) {
				throw new UnsupportedOperationException("Fair lock '" + key
						+ "' cannot wait for replicas to acknowledge its grants: a release grants a fair lock "
						+ "to the next waiter directly; use a non-fair lock or turn replica acknowledgement off");
			}
			return this.commands.tryAcquireFair(keys(key), token, lease, grantTimeout,
					notifications().publishCommand());
		});
	}

	@Override
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return Stages.now(() -> {
			if (this.acknowledgedAcquire != null) {
				// The next holder's grant would have to wait for replicas: release
				// instead.
				return null;
			}
			return this.commands.handOver(keys(key), token, nextToken, lease);
		});
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return Stages.now(() -> {
			this.commands.leave(keys(key), waiter, notifications().publishCommand());
			return null;
		});
	}

	@Override
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return Stages.now(() -> {
			if (this.acknowledgedAcquire != null) {
				// Each grant must wait for its replicas: the client takes the keys one by
				// one.
				return null;
			}
			List<LockKeys> lockKeys = keys.stream().map(this::keys).toList();
			if (isCluster() && lockKeys.stream()
				.map((key) -> ClusterSlotHashUtil.calculateSlot(key.lockKey()))
				.distinct()
				.count() > 1) {
				return null;
			}
			List<Attempt> attempts = this.commands.tryAcquireAll(lockKeys, token, lease);
			chooseNotificationsQuietly();
			return attempts;
		});
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return Stages.now(() -> this.commands.expireAfter(keys(key), token, remaining));
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return Stages.now(() -> this.commands.release(keys(key), token, notifications().publishCommand()));
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return Stages.now(() -> this.commands.isOwner(keys(key), token));
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return Stages.now(() -> {
			List<RenewalOutcome> outcomes = new ArrayList<>(
					Collections.nCopies(renewals.size(), RenewalOutcome.FAILED));
			Map<Integer, List<Integer>> groups;
			try {
				groups = slotGroups(renewals);
			}
			catch (RuntimeException ex) {
				throw new LockBackendException(renewals.get(0).key(), "renew", ex);
			}
			RuntimeException failure = null;
			int failedGroups = 0;
			for (List<Integer> group : groups.values()) {
				try {
					List<Boolean> renewed = this.commands.renew(
							group.stream().map((i) -> keys(renewals.get(i).key()).lockKey()).toList(),
							group.stream().map((i) -> renewals.get(i).token()).toList(), lease.toMillis());
					for (int j = 0; j < group.size(); j++) {
						outcomes.set(group.get(j), renewed.get(j) ? RenewalOutcome.RENEWED : RenewalOutcome.LOST);
					}
				}
				catch (RuntimeException ex) {
					logger.debug("Could not renew " + group.size() + " lock lease(s)", ex);
					failure = ex;
					failedGroups++;
				}
			}
			if (failure != null && failedGroups == groups.size()) {
				throw new LockBackendException(renewals.get(0).key(), "renew", failure);
			}
			return outcomes;
		});
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return Stages.now(() -> this.inspection.inspect(keys(key)));
	}

	@Override
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return Stages.now(() -> this.inspection.forceRelease(keys(key), notifications().publishCommand()));
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return subscribe(key, null, listener);
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		// With replica acknowledgement, waiting clients are not registered (see
		// tryAcquire): they hear every release.
		return subscribe(key, (this.acknowledgedAcquire != null) ? null : waiter, listener);
	}

	private Subscription subscribe(String key, @Nullable String waiter, Runnable listener) {
		ReleaseNotifications chosen = this.notifications;
		if (chosen == null) {
			chosen = choose(false);
		}
		return chosen.subscribe(keys(key).channel(), waiter, listener);
	}

	@Override
	public void close() {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			chosen.close();
		}
		if (this.acknowledgedAcquire != null) {
			this.acknowledgedAcquire.close();
		}
	}

	private AcknowledgedAcquire acknowledgedAcquire(ReplicaAcknowledgement acknowledgement) {
		Assert.state(lettucePresent && this.connectionFactory instanceof LettuceConnectionFactory, () -> "Waiting for "
				+ acknowledgement.minReplicas()
				+ " replica(s) to acknowledge lock grants needs a LettuceConnectionFactory, but the template uses "
				+ this.connectionFactory.getClass().getName());
		return new AcknowledgedAcquire((LettuceConnectionFactory) this.connectionFactory, acknowledgement);
	}

	LockKeys keys(String key) {
		return LockKeys.of(this.keyPrefix, key);
	}

	private Map<Integer, List<Integer>> slotGroups(List<Renewal> renewals) {
		boolean slotted = isCluster();
		Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < renewals.size(); i++) {
			int slot = slotted ? ClusterSlotHashUtil.calculateSlot(keys(renewals.get(i).key()).lockKey()) : 0;
			groups.computeIfAbsent(slot, (s) -> new ArrayList<>()).add(i);
		}
		return groups;
	}

	private ReleaseNotifications notifications() {
		ReleaseNotifications chosen = this.notifications;
		return (chosen != null) ? chosen : choose(true);
	}

	private void chooseNotificationsQuietly() {
		if (this.notifications == null) {
			try {
				choose(true);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not tell whether Redis supports sharded pub/sub yet", ex);
			}
		}
	}

	/**
	 * Pick sharded pub/sub on a Redis 7+ Cluster reached through Lettuce, else classic
	 * pub/sub. Telling the server version takes a round trip, done once and only when
	 * {@code mayAskRedis}; until then, subscriptions on such a Cluster are not made.
	 */
	private synchronized ReleaseNotifications choose(boolean mayAskRedis) {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			return chosen;
		}
		Object nativeClient = (lettucePresent && this.connectionFactory instanceof LettuceConnectionFactory lettuce
				&& lettuce.isClusterAware()) ? lettuce.getNativeClient() : null;
		if (nativeClient instanceof io.lettuce.core.cluster.RedisClusterClient clusterClient) {
			if (!mayAskRedis) {
				return UNDECIDED;
			}
			if (serverMajorVersion() >= 7) {
				chosen = new ShardedReleaseNotifications(clusterClient, SHARD_CHANNEL_LINGER, this.name);
			}
		}
		if (chosen == null) {
			chosen = new PatternReleaseNotifications(this.connectionFactory, channelPattern(), this.name);
		}
		this.notifications = chosen;
		return chosen;
	}

	private int serverMajorVersion() {
		Properties info = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
		int major = Integer.MAX_VALUE;
		if (info != null) {
			for (String name : info.stringPropertyNames()) {
				if (name.endsWith("redis_version")) {
					String version = info.getProperty(name);
					major = Math.min(major, Integer.parseInt(version.substring(0, version.indexOf('.'))));
				}
			}
		}
		return (major == Integer.MAX_VALUE) ? 0 : major;
	}

	private String channelPattern() {
		StringBuilder pattern = new StringBuilder();
		for (char c : this.keyPrefix.toCharArray()) {
			if ("*?[]\\".indexOf(c) >= 0) {
				pattern.append('\\');
			}
			pattern.append(c);
		}
		return pattern.append("{*}:released").toString();
	}

	private boolean isCluster() {
		Boolean known = this.cluster;
		if (known == null) {
			known = detectCluster();
			this.cluster = known;
		}
		return known;
	}

	private boolean detectCluster() {
		if (lettucePresent && this.connectionFactory instanceof LettuceConnectionFactory lettuce) {
			return lettuce.isClusterAware();
		}
		if (jedisPresent && this.connectionFactory instanceof JedisConnectionFactory jedis) {
			return jedis.isRedisClusterAware();
		}
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return connection instanceof RedisClusterConnection;
		}
	}

}
