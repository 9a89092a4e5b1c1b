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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.store.support.Stages;
import dev.distlock.store.support.StageTimeouts;
import io.lettuce.core.ClientOptions;
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
 * Every request, from waiting for the connection to the script's reply (and its one retry
 * on a new connection, or the script's source after {@code NOSCRIPT}), takes at most one
 * command timeout, bounded by one timeout mechanism. Lettuce fails a command after the
 * factory's command timeout when its {@code TimeoutOptions} apply the connection's
 * timeout (Spring Data Redis's default client options and Spring Boot's both do): then a
 * request that is one command on a ready connection, the usual case, is bounded by that
 * timer alone, and the store's own ({@link StageTimeouts}) starts, for what is left of
 * the command timeout, only when the request needs more (a connection to wait for, a
 * second command). With other client options the store's bound covers every request from
 * its start.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LettuceScriptExecutor implements ScriptExecutor {

	private static final Log logger = LogFactory.getLog(LettuceScriptExecutor.class);

	private final LettuceConnectionFactory connectionFactory;

	private final Executor connector;

	private final AtomicReference<@Nullable CompletableFuture<NativeConnection>> connection = new AtomicReference<>();

	/**
	 * Whether Lettuce bounds every command by the connection's timeout, which Spring Data
	 * Redis sets to the command timeout.
	 */
	private final boolean clientBoundsCommands;

	private volatile boolean closed;

	LettuceScriptExecutor(LettuceConnectionFactory connectionFactory, Executor connector) {
		this.connectionFactory = connectionFactory;
		this.connector = connector;
		this.clientBoundsCommands = connectionFactory.getClientConfiguration()
			.getClientOptions()
			.map(ClientOptions::getTimeoutOptions)
			.map((timeouts) -> timeouts.isTimeoutCommands() && timeouts.isApplyConnectionTimeout())
			.orElse(false);
	}

	@Override
	public Duration commandTimeout() {
		return this.connectionFactory.getClientConfiguration().getCommandTimeout();
	}

	@Override
	public CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args) {
		// One command timeout for the whole request: waiting for a connection, the script
		// and a second try on a new connection all fit in it
		Request request = new Request(script, commandTimeout());
		if (!this.clientBoundsCommands) {
			request.bound();
		}
		run(script, keys, args, true, request);
		return request.reply;
	}

	/**
	 * Send the request on the connection, at once when it is ready: the reply's stage and
	 * the script's are the only stages of a request on a ready connection.
	 */
	private void run(LuaScript script, List<String> keys, List<String> args, boolean mayRetry, Request request) {
		if (request.isDone()) {
			// Timed out before a second try: never sent late
			return;
		}
		CompletableFuture<NativeConnection> current = connection();
		if (current.isDone() && !current.isCompletedExceptionally()) {
			send(current, current.join(), script, keys, args, mayRetry, request);
			return;
		}
		// More than one command's time: the store's own bound starts
		request.bound();
		current.whenComplete((connection, failure) -> {
			if (failure != null) {
				failed(current, failure, script, keys, args, mayRetry, request);
			}
			else if (!request.isDone()) {
				// (Timed out while the connection was being made: never sent late)
				send(current, connection, script, keys, args, mayRetry, request);
			}
		});
	}

	private void send(CompletableFuture<NativeConnection> current, NativeConnection connection, LuaScript script,
			List<String> keys, List<String> args, boolean mayRetry, Request request) {
		evaluate(connection, script, keys, args, request).whenComplete((reply, failure) -> {
			if (failure == null) {
				request.reply.complete(reply);
			}
			else {
				failed(current, failure, script, keys, args, mayRetry, request);
			}
		});
	}

	private void failed(CompletableFuture<NativeConnection> current, Throwable failure, LuaScript script,
			List<String> keys, List<String> args, boolean mayRetry, Request request) {
		if (isConnectionFailure(failure) && !(Stages.unwrap(failure) instanceof TooLateException)) {
			discard(current);
			if (mayRetry && isClosed(failure)) {
				// Refused before it was sent (the factory was stopped or restarted): safe
				// to send once more on a new connection, within what is left of the
				// command timeout
				request.bound();
				run(script, keys, args, false, request);
				return;
			}
		}
		Throwable cause = Stages.unwrap(failure);
		request.reply.completeExceptionally(
				(cause instanceof NotSentException notSent && notSent.getCause() != null) ? notSent.getCause() : cause);
	}

	private CompletableFuture<Object> evaluate(NativeConnection connection, LuaScript script, List<String> keys,
			List<String> args, Request request) {
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
				return;
			}
			if (isNoScript(failure)) {
				// A second command: it must fit in what is left of the command timeout
				request.bound();
			}
			if (isNoScript(failure) && request.isDone()) {
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
	 * One request: its reply, and the store's bound of one command timeout from the
	 * request's start, started when the request needs it.
	 */
	private static final class Request {

		final CompletableFuture<Object> reply = new CompletableFuture<>();

		private final LuaScript script;

		private final Duration timeout;

		private final long deadlineNanos;

		private final AtomicBoolean bounded = new AtomicBoolean();

		Request(LuaScript script, Duration timeout) {
			this.script = script;
			this.timeout = timeout;
			this.deadlineNanos = System.nanoTime() + timeout.toNanos();
		}

		/**
		 * Bound the request by what is left of its command timeout (failing it at once if
		 * nothing is), once.
		 */
		void bound() {
			if (this.bounded.compareAndSet(false, true)) {
				StageTimeouts.within(this.reply, this.timeout, this.deadlineNanos, this.script.description());
			}
		}

		boolean isDone() {
			return this.reply.isDone();
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
