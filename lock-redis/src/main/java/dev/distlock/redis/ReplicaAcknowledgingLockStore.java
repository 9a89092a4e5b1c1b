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
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.LockReplicationException;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;
import dev.distlock.store.support.Stages;
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
 * Only plain write locks are acknowledged: of the wrapped store's extensions this store
 * offers only {@link InspectionExtension inspection}. It has no {@link FairQueueExtension
 * fair queue} (a release grants a fair lock to the next waiter directly), no
 * {@link ReadLockExtension read locks}, no {@link WakeOneExtension wake-one}
 * registration, no {@link HandOverExtension hand-over} (the next holder's grant would
 * have to wait for replicas too) and no {@link SeveralKeysExtension several keys in one
 * step} (each grant waits for its replicas), so the client refuses fair and read locks
 * before any request and takes several keys one by one.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ReplicaAcknowledgingLockStore extends ForwardingLockStore {

	private static final boolean lettucePresent = ClassUtils.isPresent("io.lettuce.core.cluster.RedisClusterClient",
			ReplicaAcknowledgingLockStore.class.getClassLoader());

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
		super(store);
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

	/**
	 * {@inheritDoc}
	 * <p>
	 * Only {@link InspectionExtension}: no other extension waits for replicas.
	 */
	@Override
	public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
		return (type == InspectionExtension.class) ? super.extension(type) : null;
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

	@Override
	public void close() {
		this.acquire.close();
		this.connector.shutdown();
		super.close();
	}

}
