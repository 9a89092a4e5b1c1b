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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.distlock.LockBackendException;
import dev.distlock.store.FairGrantWakeUpExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * {@link LockStore} on Redis, through the application's {@link StringRedisTemplate}
 * (standalone, Sentinel or Cluster; Lettuce or Jedis, either one alone on the classpath).
 * Non-blocking: with a Lettuce connection factory every script runs on Lettuce's
 * asynchronous API over the factory's native connection, shared by all callers; with any
 * other factory (Jedis) each script runs on a small bounded executor of the store's own,
 * and a full queue fails the stage at once rather than block. Every stage completes
 * within the factory's command timeout and fails with {@link LockBackendException}.
 * <ul>
 * <li>Acquire is one script: {@code SET NX PX} of the owner token and a fencing token
 * that is the larger of the server clock in microseconds and the last grant plus
 * one.</li>
 * <li>Release, renew and the ownership check are owner-checked scripts, so they run on
 * the master even when the application reads from replicas.</li>
 * <li>Renewal runs one script per batch; on a Cluster one per hash slot within the batch,
 * all sent at once.</li>
 * <li>Releases are published on the lock's channel: with {@code SPUBLISH} to the
 * channel's shard on a Redis 7+ Cluster through Lettuce, else with {@code PUBLISH}, heard
 * through one pattern subscription per store.</li>
 * </ul>
 * Every key of one lock shares a Cluster hash slot (see {@link LockKeys}). Grants that
 * must be acknowledged by replicas come from the decorator
 * {@link ReplicaAcknowledgingLockStore}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisLockStore implements LockStore, ReadLockExtension, FairGrantWakeUpExtension, WakeOneExtension,
		HandOverExtension, SeveralKeysExtension, InspectionExtension {

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

	private static final int RECENT_KEYS = 1024;

	private final RedisConnectionFactory connectionFactory;

	private final String keyPrefix;

	private final String name = "distlock-" + UUID.randomUUID().toString().substring(0, 8);

	private final ThreadPoolExecutor connector;

	private final ScriptExecutor executor;

	private final RedisLockCommands commands;

	private final RedisLockInspection inspection;

	private final UnansweredWrites unanswered = new UnansweredWrites();

	/**
	 * The keys that listeners of every release are subscribed to, with how many.
	 */
	private final Map<String, Integer> everyReleaseListeners = new ConcurrentHashMap<>();

	/**
	 * The keys of recently used locks, direct-mapped by the lock key's hash, so that the
	 * acquire, renewals and release of one acquisition build the names once. A slot is
	 * overwritten by the next lock mapping to it; entries are immutable, so a racy read
	 * sees either a complete entry or {@code null}.
	 */
	private final @Nullable LockKeys[] recentKeys = new LockKeys[RECENT_KEYS];

	private volatile @Nullable ReleaseNotifications notifications;

	private volatile @Nullable CompletableFuture<ReleaseNotifications> deciding;

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
		this(redis, keyPrefix, PooledScriptExecutor.DEFAULT_THREADS, PooledScriptExecutor.DEFAULT_QUEUE_CAPACITY);
	}

	/**
	 * Create a store whose executor for blocking clients has the given size.
	 * @param redis the template to run commands with
	 * @param keyPrefix prefix of every Redis key and channel
	 * @param threads threads of the executor for blocking clients
	 * @param queueCapacity commands that may wait for one of those threads
	 */
	RedisLockStore(StringRedisTemplate redis, String keyPrefix, int threads, int queueCapacity) {
		Assert.notNull(redis, "'redis' must not be null");
		Assert.notNull(keyPrefix, "'keyPrefix' must not be null");
		Assert.isTrue(keyPrefix.indexOf('{') < 0 && keyPrefix.indexOf('}') < 0,
				() -> "'keyPrefix' must not contain '{' or '}' (they are used as hash tags), but was '" + keyPrefix
						+ "'");
		this.connectionFactory = redis.getRequiredConnectionFactory();
		this.keyPrefix = keyPrefix;
		this.connector = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(64), (task) -> {
			Thread thread = new Thread(task, this.name + "-connect");
			thread.setDaemon(true);
			return thread;
		});
		this.connector.allowCoreThreadTimeOut(true);
		this.executor = isLettuce() ? LettuceSupport.executor(this.connectionFactory, this.connector)
				: new PooledScriptExecutor(redis, commandTimeout(this.connectionFactory), threads, queueCapacity);
		this.commands = new RedisLockCommands(this.executor);
		this.inspection = new RedisLockInspection(this.commands);
	}

	/**
	 * Return the prefix of every key and channel of this store.
	 * @return the key prefix
	 */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Return the connection factory of the template the store runs its commands with.
	 * @return the connection factory
	 */
	public RedisConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	/**
	 * Return how long one command may take: the Lettuce factory's command timeout, the
	 * Jedis factory's read timeout, else one minute.
	 * @return the command timeout
	 */
	public Duration commandTimeout() {
		return this.executor.commandTimeout();
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		LockKeys keys = keys(key);
		return decidingNotifications(keys,
				this.unanswered.watch(key, this.commands.tryAcquire(keys, token, lease, listensToEveryRelease(key))));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Readers are stored as a sorted set under the lock key (reader tokens scored by the
	 * end of their lease in server milliseconds, pruned by score), so that the write
	 * lock's {@code SET NX} fails while they hold it.
	 */
	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		LockKeys keys = keys(key);
		return decidingNotifications(keys, this.unanswered.watch(key,
				this.commands.tryAcquireRead(keys, token, lease, listensToEveryRelease(key))));
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		LockKeys keys = keys(key);
		return decidingNotifications(keys,
				this.unanswered.watch(key, this.commands.tryAcquire(keys, token, lease, waiter, waiterTtl)));
	}

	@Override
	public CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		LockKeys keys = keys(key);
		return this.unanswered.watch(key,
				publishing(keys, (publish) -> this.commands.tryAcquireFair(keys, token, lease, grantTimeout, publish)));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return handOver(key, token, nextToken, lease, "")
			.<@Nullable Attempt>thenApply((handOff) -> (handOff != null) ? handOff.attempt() : null);
	}

	@Override
	@SuppressWarnings("NullAway") // as above
	public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		return this.unanswered.<@Nullable HandOff>watch(key,
				this.commands.handOver(keys(key), token, nextToken, lease, client));
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		LockKeys keys = keys(key);
		return publishing(keys, (publish) -> this.commands.leave(keys, waiter, publish)).thenApply((left) -> null);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One script drops a registration of a waiting client and a place in the fair queue.
	 */
	@Override
	public CompletionStage<Void> leaveFairQueue(String key, String token) {
		return leave(key, token);
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		List<LockKeys> lockKeys;
		try {
			lockKeys = keys.stream().map(this::keys).toList();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (isCluster() && lockKeys.stream()
			.map((key) -> ClusterSlotHashUtil.calculateSlot(key.lockKey()))
			.distinct()
			.count() > 1) {
			return CompletableFuture.<@Nullable List<Attempt>>completedFuture(null);
		}
		boolean listening = keys.stream().anyMatch(this::listensToEveryRelease);
		CompletableFuture<List<Attempt>> acquired = this.commands.tryAcquireAll(lockKeys, token, lease, listening);
		keys.forEach((key) -> this.unanswered.watch(key, acquired));
		return decidingNotifications(lockKeys.get(0), acquired)
			.<@Nullable List<Attempt>>thenApply((attempts) -> attempts);
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return this.commands.expireAfter(keys(key), token, remaining);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * A release of a key whose last granting request failed without an answer is sent
	 * once more if it finds the key not ours, so that it runs after that request
	 * ({@link UnansweredWrites}).
	 */
	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		LockKeys keys = keys(key);
		return this.unanswered.release(key, () -> {
			ReleaseNotifications chosen = this.notifications;
			if (chosen != null) {
				return this.commands.release(keys, token, chosen.publishCommand());
			}
			return publishing(keys, (publish) -> this.commands.release(keys, token, publish));
		});
	}

	/**
	 * Record that a granting request for {@code key} sent another way (the
	 * replica-acknowledged acquire) failed without an answer.
	 * @param key the lock key
	 */
	void unanswered(String key) {
		this.unanswered.failed(key);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return this.commands.isOwner(keys(key), token);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Tokens are unique per acquisition, so the owner-checked scripts of write locks
	 * serve readers too: they find the token where it is stored. The read grants'
	 * operations are this store's own.
	 */
	@Override
	public HeldLockOperations readGrants() {
		return this;
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return new SlotRenewal(this.commands, renewals, lease, isCluster(), this::keys).run();
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * On a Cluster the master that serves the key's hash slot in Lettuce's cluster view
	 * (the slot itself with Jedis, or while the view does not know the slot), so that a
	 * master that stalls delays the renewals of its own keys only; one group otherwise.
	 */
	@Override
	public Object renewalGroup(String key) {
		if (!isCluster()) {
			return "";
		}
		int slot = ClusterSlotHashUtil.calculateSlot(keys(key).lockKey());
		Object master = isLettuce() ? LettuceSupport.masterOf(this.connectionFactory, slot) : null;
		return (master != null) ? master : slot;
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return this.inspection.inspect(keys(key));
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public CompletionStage<@Nullable String> forceRelease(String key) {
		LockKeys keys = keys(key);
		return this.<@Nullable String>publishing(keys, (publish) -> this.inspection.forceRelease(keys, publish));
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return subscribe(key, null, (message) -> listener.run());
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return subscribe(key, waiter, (message) -> listener.run());
	}

	@Override
	// NullAway reads the extension's class file without the @Nullable of its type
	// arguments, so it sees this override's nullable type argument as a mismatch
	@SuppressWarnings("NullAway")
	public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return subscribe(key, token, (message) -> listener.accept(ChannelListeners.fairGrant(message, token)));
	}

	/**
	 * Return whether a listener of every release of {@code key} is subscribed in this
	 * store: its refused attempts then register it in Redis, so that releases publish.
	 * @param key the lock key
	 * @return whether such a listener is subscribed
	 */
	boolean listensToEveryRelease(String key) {
		return this.everyReleaseListeners.containsKey(key);
	}

	private Subscription subscribe(String key, @Nullable String waiter, Consumer<@Nullable String> listener) {
		if (waiter != null) {
			return subscribeToChannel(key, waiter, listener);
		}
		Subscription subscription = subscribeToChannel(key, null, listener);
		this.everyReleaseListeners.merge(key, 1, Integer::sum);
		AtomicBoolean closed = new AtomicBoolean();
		return () -> {
			if (closed.compareAndSet(false, true)) {
				this.everyReleaseListeners.computeIfPresent(key, (name, count) -> (count == 1) ? null : count - 1);
				subscription.close();
			}
		};
	}

	private Subscription subscribeToChannel(String key, @Nullable String waiter, Consumer<@Nullable String> listener) {
		LockKeys keys = keys(key);
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			return chosen.subscribe(keys.channel(), waiter, listener);
		}
		// Undecided until the server told its version: subscribe once it did; the
		// waiter re-checks on its timer meanwhile (and for good if Redis cannot tell).
		DeferredSubscription deferred = new DeferredSubscription();
		decideNotifications(keys)
			.thenAccept((decided) -> deferred.start(() -> decided.subscribe(keys.channel(), waiter, listener)));
		return deferred;
	}

	@Override
	public void close() {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			chosen.close();
		}
		this.executor.close();
		this.connector.shutdown();
	}

	LockKeys keys(String key) {
		int slot = key.hashCode() & (RECENT_KEYS - 1);
		LockKeys recent = this.recentKeys[slot];
		if (recent != null && recent.name().equals(key)) {
			return recent;
		}
		LockKeys keys = LockKeys.of(this.keyPrefix, key);
		this.recentKeys[slot] = keys;
		return keys;
	}

	/**
	 * Run a script that publishes, once the store knows how to publish.
	 */
	private <T extends @Nullable Object> CompletableFuture<T> publishing(LockKeys keys,
			Function<String, CompletableFuture<T>> script) {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			return script.apply(chosen.publishCommand());
		}
		return decideNotifications(keys).thenCompose((decided) -> script.apply(decided.publishCommand()));
	}

	/**
	 * After an acquire script, decide how releases are published (in the background), so
	 * that the waiter's subscription, made next, is a real one.
	 */
	private <T extends @Nullable Object> CompletableFuture<T> decidingNotifications(LockKeys keys,
			CompletableFuture<T> acquired) {
		if (this.notifications == null) {
			acquired.thenRun(() -> decideNotifications(keys));
		}
		return acquired;
	}

	/**
	 * Pick sharded pub/sub on a Redis 7+ Cluster reached through Lettuce, else classic
	 * pub/sub. Telling the server version takes a round trip, made once (again after a
	 * failure).
	 */
	private CompletableFuture<ReleaseNotifications> decideNotifications(LockKeys keys) {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			return CompletableFuture.completedFuture(chosen);
		}
		synchronized (this) {
			CompletableFuture<ReleaseNotifications> decision = this.deciding;
			if (decision != null && !decision.isCompletedExceptionally()) {
				return decision;
			}
			@Nullable CompletableFuture<ReleaseNotifications> sharded = isLettuce() ? LettuceSupport.clusterNotifications(
					this.connectionFactory, () -> this.commands.serverMajorVersion(keys), SHARD_CHANNEL_LINGER,
					this.name, this::patternNotifications) : null;
			decision = (sharded != null) ? sharded.thenApply(this::chosen)
					: CompletableFuture.completedFuture(chosen(patternNotifications()));
			decision.whenComplete((decided, ex) -> {
				if (ex != null) {
					logger.debug("Could not tell whether Redis supports sharded pub/sub yet", ex);
				}
			});
			this.deciding = decision;
			return decision;
		}
	}

	private synchronized ReleaseNotifications chosen(ReleaseNotifications candidate) {
		ReleaseNotifications chosen = this.notifications;
		if (chosen != null) {
			candidate.close();
			return chosen;
		}
		this.notifications = candidate;
		return candidate;
	}

	private ReleaseNotifications patternNotifications() {
		return new PatternReleaseNotifications(this.connectionFactory, channelPattern(), this.name);
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

	private boolean isLettuce() {
		return lettucePresent && LettuceSupport.isLettuce(this.connectionFactory);
	}

	private boolean isCluster() {
		if (isLettuce()) {
			return LettuceSupport.isCluster(this.connectionFactory);
		}
		return jedisPresent && JedisSupport.isJedis(this.connectionFactory)
				&& JedisSupport.isCluster(this.connectionFactory);
	}

	private static Duration commandTimeout(RedisConnectionFactory connectionFactory) {
		if (jedisPresent && JedisSupport.isJedis(connectionFactory)) {
			return JedisSupport.readTimeout(connectionFactory);
		}
		return Duration.ofMinutes(1);
	}

}
