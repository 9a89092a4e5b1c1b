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
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.distlock.LockBackendException;
import dev.distlock.LockReplicationException;
import dev.distlock.core.LockStore.Attempt;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Acquires with {@link ReplicaAcknowledgement}: the acquire script, then Redis
 * {@code WAIT}, on one connection that nothing else uses meanwhile.
 * <p>
 * {@code WAIT} counts the replicas that acknowledged the writes made <em>on the
 * connection it is sent on</em>, and blocks that connection until then. On the
 * application's shared (multiplexed) Lettuce connection it would stall every other
 * command of the application for up to the replication timeout, and count other callers'
 * writes too. So this class keeps a few connections of its own, opened with the
 * application's Lettuce client (same endpoints, Sentinel lookup, credentials, TLS and
 * database), and lends each to one acquisition at a time. On a Cluster each acquisition
 * takes the master of its key's slot from the cluster view and sends the script and
 * {@code WAIT} on that node's connection, so {@code WAIT} counts that master's replicas.
 * <p>
 * Every wait is bounded: for a connection, by the command timeout plus the replication
 * timeout; for the script and {@code WAIT}, by the connection's timeout, set to the same
 * sum. A connection whose request failed is closed rather than lent again, since it may
 * still be blocked in a {@code WAIT}.
 *
 * @author distlock
 * @since 0.2.0
 */
final class AcknowledgedAcquire implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(AcknowledgedAcquire.class);

	/**
	 * Most connections open at once; an acquisition holds one for about two round trips,
	 * or for up to the replication timeout while replicas lag.
	 */
	static final int MAX_CONNECTIONS = 8;

	private final LettuceConnectionFactory connectionFactory;

	private final ReplicaAcknowledgement acknowledgement;

	private final Semaphore permits = new Semaphore(MAX_CONNECTIONS);

	private final Deque<StatefulConnection<String, String>> idle = new ConcurrentLinkedDeque<>();

	private volatile boolean closed;

	AcknowledgedAcquire(LettuceConnectionFactory connectionFactory, ReplicaAcknowledgement acknowledgement) {
		this.connectionFactory = connectionFactory;
		this.acknowledgement = acknowledgement;
	}

	/**
	 * Try once to acquire the lock and, on a grant, wait for the replicas.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @param lease the lease
	 * @param release releases a grant that too few replicas acknowledged
	 * @return the outcome
	 * @throws LockReplicationException if too few replicas acknowledged the grant, which
	 * was then released
	 * @throws LockBackendException if Redis failed or did not answer in time
	 */
	Attempt tryAcquire(LockKeys keys, String token, Duration lease, Releaser release) {
		StatefulConnection<String, String> connection = borrow(keys);
		boolean healthy = false;
		Acknowledged outcome;
		try {
			outcome = acquireAndWait(connection, keys, token, lease);
			healthy = true;
		}
		catch (RuntimeException ex) {
			throw new LockBackendException(keys.name(), "acquire", ex);
		}
		finally {
			giveBack(connection, healthy);
		}
		if (outcome.attempt().acquired() && outcome.replicas() < this.acknowledgement.minReplicas()) {
			LockReplicationException shortfall = new LockReplicationException(keys.name(), (int) outcome.replicas(),
					this.acknowledgement.minReplicas(), this.acknowledgement.timeout());
			try {
				release.release(keys, token);
			}
			catch (RuntimeException ex) {
				shortfall.addSuppressed(ex);
			}
			throw shortfall;
		}
		return outcome.attempt();
	}

	private Acknowledged acquireAndWait(StatefulConnection<String, String> connection, LockKeys keys, String token,
			Duration lease) {
		if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
			try {
				return acquireAndWait(masterOf(cluster, keys).sync(), keys, token, lease);
			}
			catch (RedisCommandExecutionException ex) {
				if (!isRedirect(ex)) {
					throw ex;
				}
				// The slot moved (a failover, a resharding): nothing ran; ask again
				((RedisClusterClient) nativeClient()).refreshPartitions();
				return acquireAndWait(masterOf(cluster, keys).sync(), keys, token, lease);
			}
		}
		return acquireAndWait(((StatefulRedisConnection<String, String>) connection).sync(), keys, token, lease);
	}

	private Acknowledged acquireAndWait(RedisCommands<String, String> commands, LockKeys keys, String token,
			Duration lease) {
		Attempt attempt = RedisLockCommands.toAttempt(acquire(commands, keys, token, lease));
		if (!attempt.acquired()) {
			return new Acknowledged(attempt, 0);
		}
		Long replicas = commands.waitForReplication(this.acknowledgement.minReplicas(),
				this.acknowledgement.timeout().toMillis());
		return new Acknowledged(attempt, (replicas != null) ? replicas : 0);
	}

	private static List<Long> acquire(RedisCommands<String, String> commands, LockKeys keys, String token,
			Duration lease) {
		String[] scriptKeys = { keys.lockKey(), keys.fenceKey(), keys.writerWaitingKey() };
		String leaseMillis = Long.toString(lease.toMillis());
		try {
			return commands.evalsha(LockScripts.ACQUIRE.getSha1(), ScriptOutputType.MULTI, scriptKeys, token,
					leaseMillis, RedisLockCommands.WRITER_WAITING_MILLIS);
		}
		catch (RedisCommandExecutionException ex) {
			if (ex.getMessage() == null || !ex.getMessage().startsWith("NOSCRIPT")) {
				throw ex;
			}
			return commands.eval(LockScripts.ACQUIRE.getScriptAsString(), ScriptOutputType.MULTI, scriptKeys, token,
					leaseMillis, RedisLockCommands.WRITER_WAITING_MILLIS);
		}
	}

	private StatefulRedisConnection<String, String> masterOf(StatefulRedisClusterConnection<String, String> cluster,
			LockKeys keys) {
		int slot = SlotHash.getSlot(keys.lockKey());
		RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
		if (master == null) {
			throw new IllegalStateException("The cluster view has no master for hash slot " + slot);
		}
		StatefulRedisConnection<String, String> node = cluster.getConnection(master.getNodeId());
		node.setTimeout(requestTimeout());
		return node;
	}

	private static boolean isRedirect(RedisCommandExecutionException ex) {
		String message = ex.getMessage();
		return message != null && (message.startsWith("MOVED") || message.startsWith("ASK"));
	}

	private StatefulConnection<String, String> borrow(LockKeys keys) {
		try {
			if (!this.permits.tryAcquire(requestTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
				throw new LockBackendException(keys.name(), "acquire",
						new TimeoutException(
								"All " + MAX_CONNECTIONS + " connections for replica acknowledgement stayed busy for "
										+ requestTimeout().toMillis() + " ms"));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockBackendException(keys.name(), "acquire", ex);
		}
		try {
			if (this.closed) {
				throw new IllegalStateException("The lock store was closed");
			}
			StatefulConnection<String, String> connection = this.idle.pollFirst();
			return (connection != null) ? connection : open();
		}
		catch (RuntimeException ex) {
			this.permits.release();
			throw new LockBackendException(keys.name(), "acquire", ex);
		}
	}

	private void giveBack(StatefulConnection<String, String> connection, boolean healthy) {
		try {
			if (healthy && !this.closed) {
				this.idle.offerFirst(connection);
				if (this.closed && this.idle.remove(connection)) {
					closeQuietly(connection);
				}
			}
			else {
				closeQuietly(connection);
			}
		}
		finally {
			this.permits.release();
		}
	}

	private StatefulConnection<String, String> open() {
		AbstractRedisClient client = nativeClient();
		StatefulConnection<String, String> connection;
		if (client instanceof RedisClusterClient cluster) {
			connection = cluster.connect(StringCodec.UTF8);
		}
		else if (client instanceof RedisClient standalone) {
			connection = standalone.connect(StringCodec.UTF8);
		}
		else {
			throw new IllegalStateException("Unsupported Lettuce client " + client.getClass().getName());
		}
		connection.setTimeout(requestTimeout());
		return connection;
	}

	private AbstractRedisClient nativeClient() {
		return this.connectionFactory.getRequiredNativeClient();
	}

	/**
	 * How long one request may take: the command timeout, plus the replication timeout
	 * for {@code WAIT}.
	 */
	private Duration requestTimeout() {
		return this.connectionFactory.getClientConfiguration().getCommandTimeout().plus(this.acknowledgement.timeout());
	}

	private static void closeQuietly(StatefulConnection<String, String> connection) {
		try {
			connection.closeAsync();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not close a connection for replica acknowledgement", ex);
		}
	}

	@Override
	public void close() {
		this.closed = true;
		StatefulConnection<String, String> connection;
		while ((connection = this.idle.pollFirst()) != null) {
			closeQuietly(connection);
		}
	}

	/**
	 * Releases a grant, owner-checked.
	 */
	@FunctionalInterface
	interface Releaser {

		void release(LockKeys keys, String token);

	}

	private record Acknowledged(Attempt attempt, long replicas) {

	}

}
