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

package dev.distlock.test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.distlock.store.support.Stages;
import dev.distlock.store.WakeOneExtension;
import dev.distlock.memory.InMemoryLockStore;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory store ({@link InMemoryLockStore}, one JVM, not distributed) with the
 * controls a test needs: make it unreachable ({@link #setUnreachable(boolean)}), hold the
 * replies of its requests ({@link #pauseReplies()}), give a key to a foreign owner
 * ({@link #takeOver(String, String)}), expire a key early ({@link #expire(String)}) and
 * read a key's state ({@link #isLocked(String)}, {@link #registeredWaiters(String)}).
 * <pre class="code">
 * TestLockStore store = new TestLockStore();
 * DefaultLockClient client = new DefaultLockClient(store);
 *
 * store.setUnreachable(true);                  // every operation fails
 * assertThatExceptionOfType(LockBackendException.class)
 *     .isThrownBy(() -&gt; client.acquire("order:42", Duration.ZERO, null));
 * store.setUnreachable(false);
 * </pre> {@code InMemoryLocks.store()} ({@code lock-spring-boot-test}) is one, under the
 * client {@code InMemoryLocks} gives the code under test. Operations other than these
 * controls behave exactly as in {@link InMemoryLockStore}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class TestLockStore extends InMemoryLockStore {

	private volatile boolean unreachable;

	private @Nullable PausedReplies paused;

	/**
	 * Make every operation fail as if the backend could not be reached
	 * ({@link dev.distlock.LockBackendException}; renewals answer
	 * {@link RenewalOutcome#FAILED}), or reachable again. The locks are kept meanwhile.
	 * @param unreachable whether the store is unreachable
	 */
	public void setUnreachable(boolean unreachable) {
		this.unreachable = unreachable;
	}

	/**
	 * Hold the replies of the requests this store executes from now on, until
	 * {@link PausedReplies#resume()}: a deterministic way for a test to catch a caller
	 * while its request is "on the wire". The store behaves like a server that has run
	 * the request but whose reply has not arrived yet:
	 * <ul>
	 * <li>each request is <em>executed</em> when it is made, on the calling thread: its
	 * state change (a grant, a release, a renewal, a place in a queue) is visible at once
	 * to every later request, and the release notifications it causes are sent at once,
	 * as a server publishes them while it runs the request;</li>
	 * <li>only the completion of the request's stage is held; it completes, with the
	 * result or failure of that execution, when the pause is resumed, in the order the
	 * requests were executed.</li>
	 * </ul>
	 * Release listeners ({@link #onRelease(String, Runnable)}) are not requests: a
	 * subscription is active when it is made. One pause at a time.
	 * @return the pause, which completes the held stages when resumed (or closed)
	 * @throws IllegalStateException if replies are paused already
	 */
	public synchronized PausedReplies pauseReplies() {
		if (this.paused != null) {
			throw new IllegalStateException("Replies are paused already");
		}
		PausedReplies pause = new PausedReplies();
		this.paused = pause;
		return pause;
	}

	/**
	 * Return whether someone holds {@code key}, a writer or readers. Reads the state
	 * directly: it works while the store is unreachable or its replies are paused.
	 * @param key the lock key
	 * @return whether the key is locked
	 */
	public boolean isLocked(String key) {
		return isHeld(key);
	}

	/**
	 * Give {@code key} to a foreign owner that never releases it, without notifying
	 * anyone: the client holding it finds it lost, at its next renewal or ownership
	 * check.
	 * @param key the lock key
	 * @param owner the foreign owner token
	 */
	public void takeOver(String key, String owner) {
		assignToForeignOwner(key, owner);
	}

	/**
	 * Drop the lock on {@code key} (the writer and every reader) as if its lease had run
	 * out, without notifying.
	 * @param key the lock key
	 */
	public void expire(String key) {
		drop(key);
	}

	/**
	 * Return how many clients are registered as waiting for {@code key}
	 * ({@link WakeOneExtension}) and still within their time to live.
	 * @param key the lock key
	 * @return the number of registered waiting clients
	 */
	public int registeredWaiters(String key) {
		return registeredWaiterCount(key);
	}

	@Override
	protected final boolean isReachable() {
		return !this.unreachable;
	}

	@Override
	protected final <T extends @Nullable Object> CompletionStage<T> reply(CompletableFuture<T> executed) {
		PausedReplies pause = this.paused;
		return (pause != null) ? pause.hold(executed) : executed;
	}

	/**
	 * The replies a {@link TestLockStore} holds after {@link #pauseReplies()}: the
	 * requests have been executed, their stages are not complete yet.
	 *
	 * @since 0.1.0
	 */
	public final class PausedReplies implements AutoCloseable {

		private final Deque<Runnable> held = new ArrayDeque<>();

		private PausedReplies() {
		}

		/**
		 * Return how many replies are held now: the number of requests executed since the
		 * pause whose stage is not complete.
		 * @return the number of held replies
		 */
		public int heldCount() {
			synchronized (TestLockStore.this) {
				return this.held.size();
			}
		}

		/**
		 * Complete the held stages on the calling thread, one by one in the order their
		 * requests were executed (with the callbacks the caller attached to them), then
		 * stop holding. Requests executed while this runs are held behind the earlier
		 * ones and completed too. Idempotent.
		 */
		public void resume() {
			while (true) {
				Runnable next;
				synchronized (TestLockStore.this) {
					next = this.held.poll();
					if (next == null) {
						if (TestLockStore.this.paused == this) {
							TestLockStore.this.paused = null;
						}
						return;
					}
				}
				next.run();
			}
		}

		/**
		 * Resume: complete every held stage.
		 */
		@Override
		public void close() {
			resume();
		}

		/**
		 * Hold the reply of an executed request; called under the store's monitor, in the
		 * order the requests are executed.
		 */
		private <T extends @Nullable Object> CompletableFuture<T> hold(CompletableFuture<T> executed) {
			CompletableFuture<T> reply = new CompletableFuture<>();
			this.held.add(() -> Stages.forward(executed, reply));
			return reply;
		}

	}

}
