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

package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import dev.distlock.core.RedisLockCommands.AcquireResult;
import dev.distlock.core.ReleaseSubscriptions.ChannelWaiters;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * {@link LockClient} on Redis, through the application's {@link StringRedisTemplate}
 * (standalone, Sentinel or Cluster).
 * <p>
 * Acquiring is one owner-token {@code SET NX PX} round trip that also grants a fencing
 * token; releasing is one owner-checked script that also wakes waiters over pub/sub.
 * Threads of one client queue locally per key, so only one of them talks to Redis for
 * that key at a time, and re-entry never talks to Redis. Locks acquired without a fixed
 * lease are renewed by one shared watchdog. Redis failures fail closed with
 * {@link dev.distlock.LockBackendException}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class RedisLockClient implements LockClient {

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private static final Duration SUBSCRIPTION_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration SUBSCRIPTION_LINGER = Duration.ofSeconds(1);

	private static final long UNKNOWN_TTL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final String clientId = UUID.randomUUID().toString();

	private final LockClientSettings settings;

	private final RedisLockCommands commands;

	private final LeaseWatchdog watchdog;

	private final ReleaseSubscriptions subscriptions;

	private final Map<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final AtomicLong grants = new AtomicLong();

	private final AtomicBoolean closed = new AtomicBoolean();

	/**
	 * Create a client with {@link LockClientSettings#defaults() default settings}.
	 * @param redis the template to run commands with
	 */
	public RedisLockClient(StringRedisTemplate redis) {
		this(redis, LockClientSettings.defaults());
	}

	/**
	 * Create a client.
	 * @param redis the template to run commands with
	 * @param settings the client settings
	 */
	public RedisLockClient(StringRedisTemplate redis, LockClientSettings settings) {
		Assert.notNull(redis, "'redis' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		RedisConnectionFactory connectionFactory = redis.getRequiredConnectionFactory();
		String name = "distlock-" + this.clientId.substring(0, 8);
		this.settings = settings;
		this.commands = new RedisLockCommands(redis);
		this.watchdog = new LeaseWatchdog(this.commands, settings.watchdogLease(), settings.renewalBatchSize(),
				() -> isCluster(connectionFactory), name + "-watchdog");
		this.subscriptions = new ReleaseSubscriptions(connectionFactory, SUBSCRIPTION_TIMEOUT, SUBSCRIPTION_LINGER,
				name, settings.keyPrefix() + "client:" + this.clientId);
	}

	/**
	 * Return the id that makes this client's owner tokens unique.
	 * @return the client id
	 */
	public String clientId() {
		return this.clientId;
	}

	/**
	 * Return the settings of this client.
	 * @return the settings
	 */
	public LockClientSettings settings() {
		return this.settings;
	}

	@Override
	public LockHandle obtain(String key) {
		return new RedisLockHandle(this, LockKeys.of(this.settings.keyPrefix(), key));
	}

	/**
	 * Return how many leases the watchdog is renewing.
	 * @return the number of held watchdog-mode locks
	 */
	public int renewedLeaseCount() {
		return this.watchdog.watchedCount();
	}

	boolean acquire(LockKeys keys, long waitNanos, @Nullable Duration lease) throws InterruptedException {
		ensureOpen();
		long deadline = System.nanoTime() + waitNanos;
		LockEntry entry = reserve(keys);
		boolean acquired = false;
		try {
			acquired = acquire(entry, waitNanos, deadline, lease);
			return acquired;
		}
		finally {
			if (!acquired) {
				unreserve(entry);
			}
		}
	}

	private boolean acquire(LockEntry entry, long waitNanos, long deadline, @Nullable Duration lease)
			throws InterruptedException {
		ReentrantLock gate = entry.gate;
		if (gate.isHeldByCurrentThread()) {
			String loss = entry.lossReason();
			if (loss != null) {
				throw new LockLostException(entry.keys.name(), loss);
			}
			gate.lock();
			return true;
		}
		if (!((waitNanos == 0) ? gate.tryLock() : gate.tryLock(waitNanos, TimeUnit.NANOSECONDS))) {
			return false;
		}
		boolean acquired = false;
		try {
			acquired = acquireInRedis(entry, deadline, lease);
			return acquired;
		}
		finally {
			if (!acquired) {
				gate.unlock();
			}
		}
	}

	private boolean acquireInRedis(LockEntry entry, long deadline, @Nullable Duration lease)
			throws InterruptedException {
		long leaseMillis = (lease != null) ? lease.toMillis() : this.settings.watchdogLease().toMillis();
		String token = this.clientId + ":" + Thread.currentThread().getId() + ":" + this.grants.incrementAndGet();
		AcquireResult result = attempt(entry, token, leaseMillis, lease == null);
		if (result.acquired() || deadline - System.nanoTime() <= 0) {
			return result.acquired();
		}
		ChannelWaiters waiters = this.subscriptions.join(entry.keys.channel());
		try {
			while (true) {
				long seen = waiters.releaseCount();
				result = attempt(entry, token, leaseMillis, lease == null);
				long remaining = deadline - System.nanoTime();
				if (result.acquired() || remaining <= 0) {
					return result.acquired();
				}
				waiters.awaitRelease(seen, Math.min(remaining, recheckDelayNanos(result.value())));
			}
		}
		finally {
			waiters.leave();
		}
	}

	private AcquireResult attempt(LockEntry entry, String token, long leaseMillis, boolean watchdogLease)
			throws InterruptedException {
		ensureOpen();
		long started = System.nanoTime();
		AcquireResult result = tryAcquire(entry, token, leaseMillis);
		if (result.acquired()) {
			entry.granted(token, result.value(), started + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
			if (watchdogLease) {
				this.watchdog.watch(entry, token);
			}
			if (this.closed.get()) {
				releaseQuietly(entry, token);
				ensureOpen();
			}
		}
		return result;
	}

	/**
	 * Run the acquire script. If the calling thread is interrupted while the script is in
	 * flight, the lock may have been taken without us seeing the reply: release it
	 * (owner-checked, so harmless if it was not taken) and report the interrupt.
	 */
	private AcquireResult tryAcquire(LockEntry entry, String token, long leaseMillis) throws InterruptedException {
		try {
			return this.commands.tryAcquire(entry.keys, token, leaseMillis);
		}
		catch (LockBackendException ex) {
			if (!Thread.interrupted()) {
				throw ex;
			}
			releaseQuietly(entry, token);
			InterruptedException interrupted = new InterruptedException(
					"Interrupted while acquiring lock '" + entry.keys.name() + "'");
			interrupted.initCause(ex);
			throw interrupted;
		}
	}

	private static long recheckDelayNanos(long holderTtlMillis) {
		if (holderTtlMillis > 0) {
			return TimeUnit.MILLISECONDS.toNanos(holderTtlMillis);
		}
		return (holderTtlMillis == -1) ? UNKNOWN_TTL_RECHECK_NANOS : TimeUnit.MILLISECONDS.toNanos(1);
	}

	void release(LockKeys keys) {
		LockEntry entry = heldEntry(keys);
		boolean finalHold = entry.gate.getHoldCount() == 1;
		try {
			if (finalHold) {
				releaseInRedis(entry);
			}
		}
		finally {
			if (finalHold) {
				entry.cleared();
			}
			entry.gate.unlock();
			unreserve(entry);
		}
	}

	private void releaseInRedis(LockEntry entry) {
		String token = requireToken(entry);
		String loss = entry.lossReason();
		this.watchdog.unwatch(entry, token);
		if (!this.commands.release(entry.keys, token)) {
			throw new LockLostException(entry.keys.name(),
					(loss != null) ? loss : "its key expired or has another owner when it was released");
		}
	}

	boolean isHeldByCurrentThread(LockKeys keys) {
		LockEntry entry = this.entries.get(keys.name());
		return entry != null && entry.gate.isHeldByCurrentThread() && entry.lossReason() == null;
	}

	int holdCount(LockKeys keys) {
		LockEntry entry = this.entries.get(keys.name());
		return (entry != null) ? entry.gate.getHoldCount() : 0;
	}

	LockEntry heldEntry(LockKeys keys) {
		LockEntry entry = this.entries.get(keys.name());
		if (entry == null || !entry.gate.isHeldByCurrentThread()) {
			throw new IllegalMonitorStateException("Lock '" + keys.name() + "' is not held by the current thread");
		}
		return entry;
	}

	void confirmOwnership(LockKeys keys) {
		LockEntry entry = heldEntry(keys);
		String token = requireToken(entry);
		if (!this.commands.isOwner(entry.keys, token)) {
			String reason = "Redis no longer records this holder as the owner";
			entry.lost(token, reason);
			throw new LockLostException(keys.name(), reason);
		}
	}

	private static String requireToken(LockEntry entry) {
		String token = entry.token();
		Assert.state(token != null, () -> "Lock '" + entry.keys.name() + "' has no owner token");
		return token;
	}

	private LockEntry reserve(LockKeys keys) {
		return this.entries.compute(keys.name(), (name, existing) -> {
			LockEntry entry = (existing != null) ? existing : new LockEntry(keys);
			entry.users++;
			return entry;
		});
	}

	private void unreserve(LockEntry entry) {
		this.entries.computeIfPresent(entry.keys.name(), (name, current) -> {
			if (current != entry) {
				return current;
			}
			return (--current.users == 0) ? null : current;
		});
	}

	private void ensureOpen() {
		if (this.closed.get()) {
			throw new IllegalStateException("LockClient " + this.clientId + " is closed");
		}
	}

	/**
	 * Stop renewing, wake every waiter and release every held lock, giving up after the
	 * {@link LockClientSettings#closeTimeout() close timeout}; locks not released by then
	 * expire when their lease ends. Holders learn of the release as a
	 * {@link LockLostException} when they unlock.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.watchdog.close();
		this.subscriptions.close();
		List<LockEntry> held = this.entries.values().stream().filter((entry) -> entry.token() != null).toList();
		if (held.isEmpty()) {
			return;
		}
		Thread releaser = new Thread(() -> held.forEach(this::releaseOnClose), "distlock-close-" + this.clientId);
		releaser.setDaemon(true);
		releaser.start();
		try {
			releaser.join(this.settings.closeTimeout().toMillis() + 1);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (releaser.isAlive()) {
			logger.warn("Closing LockClient " + this.clientId + " timed out; remaining locks expire with their lease");
		}
	}

	private void releaseOnClose(LockEntry entry) {
		String token = entry.token();
		if (token != null) {
			entry.lost(token, "the LockClient was closed while it was held");
			releaseQuietly(entry, token);
		}
	}

	private void releaseQuietly(LockEntry entry, String token) {
		try {
			this.commands.release(entry.keys, token);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not release lock '" + entry.keys.name() + "'; it expires with its lease", ex);
		}
	}

	private static boolean isCluster(RedisConnectionFactory connectionFactory) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			return connection instanceof RedisClusterConnection;
		}
	}

}
