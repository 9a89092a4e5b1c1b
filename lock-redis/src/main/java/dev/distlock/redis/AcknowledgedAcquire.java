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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.support.Stages;
import dev.distlock.store.support.StageTimeouts;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Acquires and waits for replicas: the acquire script, then Redis {@code WAIT}, on one
 * connection that nothing else uses meanwhile, asynchronously.
 * <p>
 * {@code WAIT} counts the replicas that acknowledged the writes made <em>on the
 * connection it is sent on</em>, and blocks that connection until then. On the
 * application's shared (multiplexed) Lettuce connection it would stall every other
 * command of the application for up to the replication timeout, and count other callers'
 * writes too. So this class keeps a few connections of its own, opened with the
 * application's Lettuce client (same endpoints, Sentinel lookup, credentials, TLS and
 * database), and lends each to one acquisition at a time; the grant and its {@code WAIT}
 * share that connection. On a Cluster each acquisition takes the master of its key's slot
 * from the cluster view and sends the script and {@code WAIT} on that node's connection,
 * so {@code WAIT} counts that master's replicas.
 * <p>
 * No thread waits: an acquisition that finds every connection lent waits for one without
 * a thread, for at most the request timeout (the command timeout plus the replication
 * timeout), as the script and {@code WAIT} do. Connections are opened on the store's
 * connector thread (Lettuce opens standalone connections synchronously). A connection
 * whose request failed is closed rather than lent again, since it may still be blocked in
 * a {@code WAIT}.
 *
 * @author distlock
 * @since 0.1.0
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

	private final Executor connector;

	private final Deque<StatefulConnection<String, String>> idle = new ArrayDeque<>();

	private final Deque<CompletableFuture<StatefulConnection<String, String>>> waiting = new ArrayDeque<>();

	private int open;

	private boolean closed;

	AcknowledgedAcquire(LettuceConnectionFactory connectionFactory, ReplicaAcknowledgement acknowledgement,
			Executor connector) {
		this.connectionFactory = connectionFactory;
		this.acknowledgement = acknowledgement;
		this.connector = connector;
	}

	/**
	 * Try once to acquire the lock and, on a grant, wait for the replicas.
	 * @param keys the lock's keys
	 * @param token the owner token
	 * @param lease the lease
	 * @param listening whether the store listens to every release of the key (a refusal
	 * then registers it, so that releases publish)
	 * @return the outcome and how many replicas acknowledged a grant; failed if Redis
	 * failed or did not answer in time
	 */
	CompletableFuture<Acknowledged> tryAcquire(LockKeys keys, String token, Duration lease, boolean listening) {
		return borrow().thenCompose((connection) -> {
			CompletableFuture<Acknowledged> outcome;
			try {
				outcome = acquireAndWait(connection, keys, RedisLockCommands.acquireArgs(token, lease, listening))
					.toCompletableFuture();
			}
			catch (RuntimeException ex) {
				outcome = CompletableFuture.failedFuture(ex);
			}
			return StageTimeouts.within(outcome, requestTimeout(), "an acknowledged acquire")
				.whenComplete((acknowledged, failure) -> giveBack(connection, failure == null));
		});
	}

	private CompletionStage<Acknowledged> acquireAndWait(StatefulConnection<String, String> connection, LockKeys keys,
			List<String> args) {
		if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
			return masterOf(cluster, keys).thenCompose((node) -> acquireAndWait(node.async(), keys, args))
				.handle((acknowledged, failure) -> {
					if (failure == null) {
						return CompletableFuture.completedFuture(acknowledged);
					}
					if (!isRedirect(failure)) {
						return CompletableFuture.<Acknowledged>failedFuture(Stages.unwrap(failure));
					}
					// The slot moved (a failover, a resharding): nothing ran; ask again
					return ((RedisClusterClient) nativeClient()).refreshPartitionsAsync()
						.thenCompose((refreshed) -> masterOf(cluster, keys))
						.thenCompose((node) -> acquireAndWait(node.async(), keys, args));
				})
				.thenCompose((stage) -> stage);
		}
		return acquireAndWait(((StatefulRedisConnection<String, String>) connection).async(), keys, args);
	}

	private CompletionStage<Acknowledged> acquireAndWait(RedisAsyncCommands<String, String> commands, LockKeys keys,
			List<String> args) {
		return acquire(commands, keys, args).thenCompose((reply) -> {
			Attempt attempt = RedisLockCommands.toAttempt(reply);
			if (!attempt.acquired()) {
				return CompletableFuture.completedFuture(new Acknowledged(attempt, 0));
			}
			return commands
				.waitForReplication(this.acknowledgement.minReplicas(), this.acknowledgement.timeout().toMillis())
				.thenApply((replicas) -> new Acknowledged(attempt, (replicas != null) ? replicas : 0));
		});
	}

	private static CompletionStage<Object> acquire(RedisAsyncCommands<String, String> commands, LockKeys keys,
			List<String> arguments) {
		String[] scriptKeys = keys.all().toArray(String[]::new);
		String[] args = arguments.toArray(String[]::new);
		LuaScript script = LockScripts.ACQUIRE;
		return commands.<Object>evalsha(script.sha1(), ScriptOutputType.MULTI, scriptKeys, args)
			.handle((reply, failure) -> {
				if (failure == null) {
					return CompletableFuture.completedFuture(reply);
				}
				if (LettuceScriptExecutor.isNoScript(failure)) {
					return commands.<Object>eval(script.source().getBytes(StandardCharsets.UTF_8),
							ScriptOutputType.MULTI, scriptKeys, args);
				}
				return CompletableFuture.failedFuture(Stages.unwrap(failure));
			})
			.thenCompose((stage) -> stage);
	}

	private CompletionStage<StatefulRedisConnection<String, String>> masterOf(
			StatefulRedisClusterConnection<String, String> cluster, LockKeys keys) {
		int slot = SlotHash.getSlot(keys.lockKey());
		RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
		if (master == null) {
			return CompletableFuture
				.failedFuture(new IllegalStateException("The cluster view has no master for hash slot " + slot));
		}
		return cluster.getConnectionAsync(master.getNodeId()).thenApply((node) -> {
			node.setTimeout(requestTimeout());
			return node;
		});
	}

	private static boolean isRedirect(Throwable failure) {
		Throwable cause = Stages.unwrap(failure);
		String message = cause.getMessage();
		return cause instanceof RedisCommandExecutionException && message != null
				&& (message.startsWith("MOVED") || message.startsWith("ASK"));
	}

	private CompletableFuture<StatefulConnection<String, String>> borrow() {
		CompletableFuture<StatefulConnection<String, String>> lent = new CompletableFuture<>();
		boolean openOne = false;
		synchronized (this) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new IllegalStateException("The lock store was closed"));
			}
			StatefulConnection<String, String> connection = this.idle.pollFirst();
			if (connection != null) {
				return CompletableFuture.completedFuture(connection);
			}
			if (this.open < MAX_CONNECTIONS) {
				this.open++;
				openOne = true;
			}
			else {
				this.waiting.addLast(lent);
			}
		}
		if (openOne) {
			open(lent);
			return lent;
		}
		return StageTimeouts.within(lent, requestTimeout(), "with a free connection for replica acknowledgement");
	}

	private void open(CompletableFuture<StatefulConnection<String, String>> lent) {
		try {
			this.connector.execute(() -> {
				try {
					StatefulConnection<String, String> connection = connect();
					if (!lent.complete(connection)) {
						giveBack(connection, true);
					}
				}
				catch (RuntimeException ex) {
					synchronized (this) {
						this.open--;
					}
					lent.completeExceptionally(ex);
				}
			});
		}
		catch (RuntimeException ex) {
			synchronized (this) {
				this.open--;
			}
			lent.completeExceptionally(ex);
		}
	}

	private void giveBack(StatefulConnection<String, String> connection, boolean healthy) {
		@Nullable CompletableFuture<StatefulConnection<String, String>> next = null;
		boolean reopen = false;
		synchronized (this) {
			if (healthy && !this.closed) {
				while ((next = this.waiting.pollFirst()) != null && next.isDone()) {
					// timed out meanwhile
				}
				if (next == null) {
					this.idle.offerFirst(connection);
					return;
				}
			}
			else {
				this.open--;
				if (!this.closed) {
					while ((next = this.waiting.pollFirst()) != null && next.isDone()) {
						// timed out meanwhile
					}
					if (next != null) {
						this.open++;
						reopen = true;
					}
				}
			}
		}
		if (!healthy || reopen) {
			closeQuietly(connection);
		}
		if (next != null) {
			if (reopen) {
				open(next);
			}
			else if (!next.complete(connection)) {
				giveBack(connection, true);
			}
		}
	}

	private StatefulConnection<String, String> connect() {
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
	Duration requestTimeout() {
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
		List<StatefulConnection<String, String>> toClose;
		List<CompletableFuture<StatefulConnection<String, String>>> toFail;
		synchronized (this) {
			this.closed = true;
			toClose = List.copyOf(this.idle);
			this.idle.clear();
			toFail = List.copyOf(this.waiting);
			this.waiting.clear();
		}
		toClose.forEach(AcknowledgedAcquire::closeQuietly);
		toFail.forEach((lent) -> lent.completeExceptionally(new IllegalStateException("The lock store was closed")));
	}

	/**
	 * The outcome of an acquire and how many replicas acknowledged it.
	 *
	 * @param attempt the outcome
	 * @param replicas the replicas that acknowledged a grant
	 */
	record Acknowledged(Attempt attempt, long replicas) {

	}

}
