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
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.LockReplicationException;
import dev.distlock.core.LockStore;
import dev.distlock.core.Stages;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * A {@link LockStore} that reports a write-lock grant of a {@link RedisLockStore} only
 * once {@link ReplicaAcknowledgement#minReplicas() enough replicas} acknowledged it, as
 * ShedLock's {@code KeepAliveLockProvider} wraps a provider. Everything but acquiring is
 * the wrapped store's.
 * <p>
 * The grant and its {@code WAIT} share a connection of their own, opened with the
 * template's Lettuce client, so {@code WAIT} counts exactly that grant and never blocks
 * the application's shared connection. When too few replicas acknowledged in time, the
 * grant is released and the stage fails with {@link LockReplicationException}.
 * <p>
 * Only plain write locks are acknowledged: this store declares no
 * {@link Capability#FAIR_LOCKS fair locks} (a release grants them to the next waiter
 * directly), no {@link Capability#READ_LOCKS read locks}, no {@link Capability#WAKE_ONE
 * wake-one} registration and no {@link Capability#HAND_OVER cohort hand-over} (the next
 * holder's grant would have to wait for replicas too) and no
 * {@link Capability#ACQUIRE_ALL several keys in one step} (each grant waits for its
 * replicas), so the client refuses fair and read locks before any request and takes
 * several keys one by one.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReplicaAcknowledgingLockStore implements LockStore {

	private static final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.cluster.RedisClusterClient",
			ReplicaAcknowledgingLockStore.class.getClassLoader());

	private static final Set<Capability> CAPABILITIES = EnumSet.of(Capability.INSPECT, Capability.FORCE_RELEASE);

	private final RedisLockStore store;

	private final ReplicaAcknowledgement acknowledgement;

	private final ThreadPoolExecutor connector;

	private final AcknowledgedAcquire acquire;

	/**
	 * Wrap {@code store} so that its write-lock grants count only once acknowledged by
	 * replicas. The store's template must use a {@link LettuceConnectionFactory}
	 * (standalone, Sentinel or Cluster).
	 * @param store the store to wrap
	 * @param acknowledgement how many replicas must acknowledge a grant, and how long to
	 * wait for them
	 * @throws IllegalStateException if the store's connection factory is not a
	 * {@link LettuceConnectionFactory}
	 */
	public ReplicaAcknowledgingLockStore(RedisLockStore store, ReplicaAcknowledgement acknowledgement) {
		Assert.notNull(store, "'store' must not be null");
		Assert.notNull(acknowledgement, "'acknowledgement' must not be null");
		Assert.isTrue(acknowledgement.isEnabled(), "'acknowledgement' must require at least one replica");
		Assert
			.state(lettucePresent && store.connectionFactory() instanceof LettuceConnectionFactory, () -> "Waiting for "
					+ acknowledgement.minReplicas()
					+ " replica(s) to acknowledge lock grants needs a LettuceConnectionFactory, but the template uses "
					+ store.connectionFactory().getClass().getName());
		this.store = store;
		this.acknowledgement = acknowledgement;
		this.connector = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(64), (task) -> {
			Thread thread = new Thread(task, "distlock-replica-connect");
			thread.setDaemon(true);
			return thread;
		});
		this.connector.allowCoreThreadTimeOut(true);
		this.acquire = new AcknowledgedAcquire((LettuceConnectionFactory) store.connectionFactory(), acknowledgement,
				this.connector);
	}

	/**
	 * Return how many replicas must acknowledge a grant before it counts.
	 * @return the replica acknowledgement
	 */
	public ReplicaAcknowledgement replicaAcknowledgement() {
		return this.acknowledgement;
	}

	/**
	 * Return the wrapped store.
	 * @return the store whose grants are acknowledged
	 */
	public RedisLockStore store() {
		return this.store;
	}

	@Override
	public Set<Capability> capabilities() {
		EnumSet<Capability> offered = EnumSet.copyOf(CAPABILITIES);
		offered.retainAll(this.store.capabilities());
		return offered;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		LockKeys keys;
		try {
			keys = this.store.keys(key);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return this.acquire.tryAcquire(keys, token, lease, this.store.listensToEveryRelease(key))
			.handle((acknowledged, failure) -> {
				if (failure != null) {
					this.store.unanswered(key);
					return CompletableFuture.<Attempt>failedFuture(backendFailure(key, failure));
				}
				return counted(key, token, acknowledged);
			})
			.thenCompose((stage) -> stage);
	}

	private CompletableFuture<Attempt> counted(String key, String token, AcknowledgedAcquire.Acknowledged outcome) {
		if (!outcome.attempt().acquired() || outcome.replicas() >= this.acknowledgement.minReplicas()) {
			return CompletableFuture.completedFuture(outcome.attempt());
		}
		LockReplicationException shortfall = new LockReplicationException(key, (int) outcome.replicas(),
				this.acknowledgement.minReplicas(), this.acknowledgement.timeout());
		return this.store.release(key, token).toCompletableFuture().handle((released, failure) -> {
			if (failure != null) {
				shortfall.addSuppressed(Stages.unwrap(failure));
			}
			throw new CompletionException(shortfall);
		});
	}

	private static Throwable backendFailure(String key, Throwable failure) {
		Throwable cause = Stages.unwrap(failure);
		return (cause instanceof LockBackendException) ? cause : new LockBackendException(key, "acquire", cause);
	}

	/**
	 * {@inheritDoc}
	 * @throws UnsupportedOperationException always: read grants are not acknowledged by
	 * replicas
	 */
	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		throw new UnsupportedOperationException("Read locks are not acknowledged by replicas; lock '" + key
				+ "' cannot be read-locked while distlock.replication.min-replicas is set");
	}

	/**
	 * {@inheritDoc}
	 * @throws UnsupportedOperationException always: a release grants a fair lock to the
	 * next waiter directly, without waiting for replicas
	 */
	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		throw new UnsupportedOperationException("Fair lock '" + key
				+ "' cannot wait for replicas to acknowledge its grants: a release grants a fair lock "
				+ "to the next waiter directly; use a non-fair lock or turn distlock.replication.min-replicas off");
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return this.store.release(key, token);
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return this.store.expireAfter(key, token, remaining);
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.store.renew(renewals, lease);
	}

	@Override
	public Object renewalGroup(String key) {
		return this.store.renewalGroup(key);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return this.store.isOwner(key, token);
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.store.onRelease(key, listener);
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return this.store.inspect(key);
	}

	@Override
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return this.store.forceRelease(key);
	}

	@Override
	public void close() {
		this.acquire.close();
		this.connector.shutdown();
		this.store.close();
	}

}
