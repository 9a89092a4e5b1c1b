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

package dev.distlock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import dev.distlock.LockBackendException;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

/**
 * Curator's background operations as stages: an operation is started with a callback that
 * completes the stage on Curator's event thread, so no thread waits for an answer. An
 * answer other than the codes the caller expects fails the stage with
 * {@link LockBackendException}, and so does an answer that does not come within the
 * timeout (the client's connection timeout: Curator keeps an operation while it
 * reconnects).
 *
 * @author distlock
 * @since 0.1.0
 */
final class Background {

	private final Duration timeout;

	/**
	 * Create the operations of one store.
	 * @param timeout how long an operation may go unanswered before its stage fails
	 */
	Background(Duration timeout) {
		this.timeout = timeout;
	}

	/**
	 * Start {@code operation} in the background.
	 * @param key the lock key, for failures
	 * @param what what the operation does, as in "failed to {@code what} lock"
	 * @param operation starts the Curator operation with the callback it is given
	 * @param expected the result codes besides {@link Code#OK} the caller handles itself
	 * @return the event, failed with {@link LockBackendException} for any other code
	 */
	CompletableFuture<CuratorEvent> call(String key, String what, Operation operation, Code... expected) {
		return call(key, what, operation, null, expected);
	}

	/**
	 * Start {@code operation} in the background, telling {@code late} of an answer that
	 * comes after the stage failed for want of one (Curator still sends an operation
	 * again after a connection loss): its effect is then the caller's to undo.
	 * @param key the lock key, for failures
	 * @param what what the operation does, as in "failed to {@code what} lock"
	 * @param operation starts the Curator operation with the callback it is given
	 * @param late told of a successful answer that came too late, if not {@code null}
	 * @param expected the result codes besides {@link Code#OK} the caller handles itself
	 * @return the event, failed with {@link LockBackendException} for any other code
	 */
	CompletableFuture<CuratorEvent> call(String key, String what, Operation operation,
			@Nullable Consumer<CuratorEvent> late, Code... expected) {
		CompletableFuture<CuratorEvent> result = new CompletableFuture<>();
		BackgroundCallback callback = (client, event) -> {
			Code code = Code.get(event.getResultCode());
			if (code == Code.OK || contains(expected, code)) {
				if (!result.complete(event) && late != null && code == Code.OK) {
					late.accept(event);
				}
			}
			else {
				result.completeExceptionally(
						new LockBackendException(key, what, KeeperException.create(code, event.getPath())));
			}
		};
		try {
			operation.start(callback);
		}
		catch (Exception ex) {
			result.completeExceptionally(new LockBackendException(key, what, ex));
		}
		return result.orTimeout(this.timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionallyCompose((failure) -> {
			Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
			return CompletableFuture
				.failedFuture(
						(cause instanceof TimeoutException)
								? new LockBackendException(key, what,
										new TimeoutException("ZooKeeper did not answer within "
												+ this.timeout.toMillis() + " ms (the client's connection timeout)"))
								: cause);
		});
	}

	static Code code(CuratorEvent event) {
		return Code.get(event.getResultCode());
	}

	private static boolean contains(Code[] codes, Code code) {
		for (Code candidate : codes) {
			if (candidate == code) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A Curator operation started in the background.
	 */
	@FunctionalInterface
	interface Operation {

		void start(BackgroundCallback callback) throws Exception;

	}

}
