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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.store.support.Stages;
import dev.distlock.store.support.StageTimeouts;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs scripts on Lettuce's asynchronous API: {@code EVALSHA}, and {@code EVAL} when the
 * server answers {@code NOSCRIPT}, on the native connection of the factory (the shared
 * connection, or a dedicated one when the factory shares none), so the commands of
 * concurrent callers share one connection and no thread waits for a reply. On a Cluster
 * the native connection is Lettuce's advanced cluster connection, which routes each
 * script to the master of its first key's slot.
 * <p>
 * The native connection is obtained once, lazily (the factory need not be started when
 * the store is created): the first requests wait for it without blocking, all on one
 * attempt that runs on a single connector thread (Spring Data Redis opens connections
 * synchronously). A failed attempt, or a connection that turns out closed (the factory
 * was stopped or restarted), is replaced on the next request.
 * <p>
 * Lettuce fails a command after the factory's command timeout when its
 * {@code TimeoutOptions} are enabled (Spring Data Redis's default client options and
 * Spring Boot's both enable them); every request, from waiting for the connection to the
 * script's reply (and its one retry on a new connection), is also bounded by one command
 * timeout on the store's own scheduler ({@link StageTimeouts}), whatever the client
 * options, so a request never takes longer than one command timeout.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LettuceScriptExecutor implements ScriptExecutor {

	private static final Log logger = LogFactory.getLog(LettuceScriptExecutor.class);

	private final LettuceConnectionFactory connectionFactory;

	private final Executor connector;

	private final AtomicReference<@Nullable CompletableFuture<NativeConnection>> connection = new AtomicReference<>();

	private volatile boolean closed;

	LettuceScriptExecutor(LettuceConnectionFactory connectionFactory, Executor connector) {
		this.connectionFactory = connectionFactory;
		this.connector = connector;
	}

	@Override
	public Duration commandTimeout() {
		return this.connectionFactory.getClientConfiguration().getCommandTimeout();
	}

	@Override
	public CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args) {
		// One command timeout, one timer task, for the whole request: waiting for a
		// connection, the script and a second try on a new connection all fit in it
		CompletableFuture<Object> request = StageTimeouts.within(new CompletableFuture<>(), commandTimeout(),
				script.description());
		Stages.forward(run(script, keys, args, true, request), request);
		return request;
	}

	private CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args, boolean mayRetry,
			CompletableFuture<Object> request) {
		CompletableFuture<NativeConnection> current = connection();
		return current.thenCompose((connection) -> request.isDone()
				// Timed out while the connection was being made: never send it late
				? CompletableFuture.failedFuture(new TooLateException(script))
				: evaluate(connection, script, keys, args, request))
			.handle((reply, failure) -> {
				if (failure == null) {
					return CompletableFuture.completedFuture(reply);
				}
				if (isConnectionFailure(failure) && !(Stages.unwrap(failure) instanceof TooLateException)) {
					discard(current);
					if (mayRetry && isClosed(failure)) {
						// Refused before it was sent (the factory was stopped or
						// restarted): safe to send once more on a new connection
						return run(script, keys, args, false, request);
					}
				}
				Throwable cause = Stages.unwrap(failure);
				return CompletableFuture
					.<Object>failedFuture((cause instanceof NotSentException notSent && notSent.getCause() != null)
							? notSent.getCause() : cause);
			})
			.thenCompose((stage) -> stage);
	}

	private CompletableFuture<Object> evaluate(NativeConnection connection, LuaScript script, List<String> keys,
			List<String> args, CompletableFuture<Object> request) {
		byte[][] keyBytes = EncodedStrings.bytes(keys);
		byte[][] argBytes = EncodedStrings.bytes(args);
		ScriptOutputType type = outputType(script);
		CompletableFuture<Object> reply = new CompletableFuture<>();
		RedisFuture<Object> sent;
		try {
			sent = connection.commands().evalsha(script.sha1(), type, keyBytes, argBytes);
		}
		catch (RuntimeException ex) {
			// Refused on the calling thread: the connection's resources are gone
			return CompletableFuture.failedFuture(new NotSentException(ex));
		}
		sent.whenComplete((result, failure) -> {
			if (failure == null) {
				reply.complete(decode(result));
			}
			else if (isNoScript(failure) && request.isDone()) {
				// Timed out meanwhile: its caller may already compensate (release what
				// it would grant), so the script must not run after that
				reply.completeExceptionally(new TooLateException(script));
			}
			else if (isNoScript(failure)) {
				evaluateSource(connection, script, type, keyBytes, argBytes, reply);
			}
			else {
				reply.completeExceptionally(failure);
			}
		});
		return reply;
	}

	private static void evaluateSource(NativeConnection connection, LuaScript script, ScriptOutputType type,
			byte[][] keys, byte[][] args, CompletableFuture<Object> reply) {
		try {
			connection.commands()
				.<Object>eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args)
				.whenComplete((evaluated, failure) -> {
					if (failure == null) {
						reply.complete(decode(evaluated));
					}
					else {
						reply.completeExceptionally(failure);
					}
				});
		}
		catch (RuntimeException ex) {
			reply.completeExceptionally(ex);
		}
	}

	private CompletableFuture<NativeConnection> connection() {
		while (true) {
			CompletableFuture<NativeConnection> current = this.connection.get();
			if (current != null && !current.isCompletedExceptionally()) {
				return current;
			}
			CompletableFuture<NativeConnection> next = new CompletableFuture<>();
			if (this.connection.compareAndSet(current, next)) {
				try {
					this.connector.execute(() -> connect(next));
				}
				catch (RuntimeException ex) {
					next.completeExceptionally(ex);
				}
				return next;
			}
		}
	}

	@SuppressWarnings("unchecked")
	private void connect(CompletableFuture<NativeConnection> outcome) {
		try {
			if (this.closed) {
				throw new IllegalStateException("The lock store was closed");
			}
			RedisConnection connection = this.connectionFactory.getConnection();
			Object commands = ((LettuceConnection) connection).getNativeConnection();
			if (!outcome
				.complete(new NativeConnection(connection, (RedisClusterAsyncCommands<byte[], byte[]>) commands))) {
				connection.close();
			}
		}
		catch (RuntimeException ex) {
			outcome.completeExceptionally(ex);
		}
	}

	private void discard(CompletableFuture<NativeConnection> failed) {
		if (this.connection.compareAndSet(failed, null)) {
			failed.thenAccept((connection) -> closeQuietly(connection.connection()));
		}
	}

	private void closeQuietly(RedisConnection connection) {
		try {
			this.connector.execute(() -> {
				try {
					connection.close();
				}
				catch (RuntimeException ex) {
					logger.debug("Could not close a Redis connection", ex);
				}
			});
		}
		catch (RuntimeException ex) {
			logger.debug("Could not close a Redis connection", ex);
		}
	}

	/**
	 * Whether a failure says the connection is unusable (closed, reset) rather than that
	 * Redis refused a command or answered late.
	 */
	private static boolean isConnectionFailure(Throwable failure) {
		Throwable cause = Stages.unwrap(failure);
		return !(cause instanceof RedisCommandExecutionException || cause instanceof RedisCommandTimeoutException
				|| cause instanceof TimeoutException);
	}

	private static boolean isClosed(Throwable failure) {
		Throwable cause = Stages.unwrap(failure);
		return cause instanceof NotSentException
				|| (cause instanceof RedisException && "Connection is closed".equals(cause.getMessage()));
	}

	/**
	 * Return whether {@code failure} is the server's answer to {@code EVALSHA} of a
	 * script it does not have ({@code NOSCRIPT}, after a restart, a failover or
	 * {@code SCRIPT FLUSH}), which {@code EVAL} of the source answers instead.
	 * @param failure the failure of an {@code EVALSHA}
	 * @return whether the script must be sent again
	 */
	static boolean isNoScript(Throwable failure) {
		Throwable cause = Stages.unwrap(failure);
		return cause instanceof RedisCommandExecutionException && cause.getMessage() != null
				&& cause.getMessage().startsWith("NOSCRIPT");
	}

	private static ScriptOutputType outputType(LuaScript script) {
		return switch (script.reply()) {
			case INTEGER -> ScriptOutputType.INTEGER;
			case MULTI -> ScriptOutputType.MULTI;
			case VALUE -> ScriptOutputType.VALUE;
		};
	}

	private static Object decode(@Nullable Object reply) {
		if (reply == null) {
			return NO_REPLY;
		}
		if (reply instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (reply instanceof List<?> list) {
			List<Object> decoded = new ArrayList<>(list.size());
			list.forEach((element) -> decoded.add(decode(element)));
			return decoded;
		}
		return reply;
	}

	@Override
	public void close() {
		this.closed = true;
		CompletableFuture<NativeConnection> current = this.connection.getAndSet(null);
		if (current != null) {
			current.thenAccept((connection) -> closeQuietly(connection.connection()));
		}
	}

	/**
	 * A request whose caller had its answer (a timeout) before the connection was ready,
	 * or before the script's source had to be sent after {@code NOSCRIPT}: it is not sent
	 * at all, so it cannot take a lock after its caller gave up.
	 */
	private static final class TooLateException extends RuntimeException {

		TooLateException(LuaScript script) {
			super("Not sent: " + script.description() + " timed out before it could be sent");
		}

	}

	/**
	 * A command the client refused before sending it.
	 */
	private static final class NotSentException extends RuntimeException {

		NotSentException(RuntimeException cause) {
			super(cause.getMessage(), cause);
		}

	}

	private record NativeConnection(RedisConnection connection, RedisClusterAsyncCommands<byte[], byte[]> commands) {

	}

}
