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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.ReadWriteTiming;
import dev.distlock.zookeeper.LockTransactions.Taken;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The writers' side of read-write locks: a writer's take that readers refused, and the
 * mark by which a writer waiting for readers keeps new readers out (writer preference,
 * timed as {@link ReadWriteTiming} says).
 * <ul>
 * <li>A take refused because the readers' container exists deletes the container, which
 * fails while readers hold the key: when it was empty (its last reader's session ended)
 * the take is sent again at once.</li>
 * <li>A writer that waits (in the key's line, or fairly) marks the key at its first
 * refusal: it creates the ephemeral {@value LockPaths#WRITER_WAITING} node, which fails
 * every read take. A writer that does not say it waits is only told to try again soon
 * ({@link ReadWriteTiming#PENDING_WRITER_RECHECK}) and marks the key if it does.</li>
 * <li>The mark goes when its writer is granted, when its writer has not tried for
 * {@link ReadWriteTiming#WRITER_WAITING} (it gave up), or with its session. Another
 * writer's refusal creates a mark again while the key has none.</li>
 * <li>The first waiter in line, finding no holder but readers, watches one reader's node
 * at a time, so that only the last reader's leaving wakes it.</li>
 * </ul>
 *
 * @author distlock
 * @since 0.1.0
 */
final class WriterMarks {

	private static final Log logger = LogFactory.getLog(WriterMarks.class);

	private static final String WAIT = "wait for the readers of";

	private static final long WRITER_WAITING_NANOS = ReadWriteTiming.WRITER_WAITING.toNanos();

	private final ZooKeeperLockStore store;

	private final Map<MarkId, Mark> marks = new ConcurrentHashMap<>();

	WriterMarks(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Run a writer's take, {@code attempt}: on a refusal by readers, send it again when
	 * their container was empty, else mark the key; on a grant, delete the writer's mark.
	 * @param waits whether the writer waits if refused
	 */
	CompletableFuture<Taken> take(String key, String token, boolean waits, Supplier<CompletableFuture<Taken>> attempt) {
		return take(key, token, waits, attempt, true);
	}

	private CompletableFuture<Taken> take(String key, String token, boolean waits,
			Supplier<CompletableFuture<Taken>> attempt, boolean again) {
		return attempt.get().thenCompose((taken) -> {
			if (taken.attempt().acquired()) {
				return granted(key, token).thenApply((unmarked) -> taken);
			}
			if (!taken.byReaders()) {
				return CompletableFuture.completedFuture(taken);
			}
			return readersLeft(key).thenCompose((left) -> {
				if (!left && again) {
					return take(key, token, waits, attempt, false);
				}
				return refused(key, token, waits)
					.thenApply((refusal) -> new Taken(refusal, taken.failedExtra(), true, false));
			});
		});
	}

	/**
	 * Delete the readers' container of {@code key}; return whether readers still hold the
	 * key (the container was not empty).
	 */
	private CompletableFuture<Boolean> readersLeft(String key) {
		return this.store.background()
			.call(key, "acquire",
					(callback) -> this.store.client()
						.delete()
						.inBackground(callback)
						.forPath(this.store.paths().readersPath(key)),
					Code.NONODE, Code.NOTEMPTY)
			.thenApply((event) -> Background.code(event) == Code.NOTEMPTY);
	}

	/**
	 * Mark the key for a writer that readers refused; return its refusal.
	 */
	private CompletableFuture<Attempt> refused(String key, String token, boolean waits) {
		MarkId id = new MarkId(key, token);
		Mark[] created = new Mark[1];
		Mark mark = this.marks.computeIfAbsent(id, (markId) -> created[0] = new Mark());
		mark.refreshed();
		if (created[0] != null) {
			expireLater(id, mark, ReadWriteTiming.WRITER_WAITING);
			if (!waits) {
				return CompletableFuture.completedFuture(Attempt.busy(ReadWriteTiming.PENDING_WRITER_RECHECK));
			}
		}
		if (mark.own) {
			return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
		}
		return this.store.background()
			.call(key, WAIT,
					(callback) -> NodeAcls
						.apply(this.store.client().create().withMode(CreateMode.EPHEMERAL), this.store.acl())
						.inBackground(callback)
						.forPath(this.store.paths().writerWaitingPath(key), token.getBytes(StandardCharsets.UTF_8)),
					Code.NODEEXISTS, Code.NONODE)
			.thenApply((event) -> {
				if (Background.code(event) == Code.OK) {
					mark.own = true;
					if (this.marks.get(id) != mark) {
						// It expired meanwhile
						delete(key);
					}
				}
				return ZooKeeperLockStore.busy();
			});
	}

	/**
	 * Keep the mark of a waiting writer whose attempt was refused without a request.
	 */
	void refresh(String key, String token) {
		Mark mark = this.marks.get(new MarkId(key, token));
		if (mark != null) {
			mark.refreshed();
		}
	}

	/**
	 * Delete the mark of a writer just granted, if it made one.
	 */
	private CompletableFuture<Void> granted(String key, String token) {
		Mark mark = this.marks.remove(new MarkId(key, token));
		return (mark != null && mark.own) ? delete(key) : CompletableFuture.completedFuture(null);
	}

	private CompletableFuture<Void> delete(String key) {
		return this.store.background()
			.call(key, WAIT,
					(callback) -> this.store.client()
						.delete()
						.inBackground(callback)
						.forPath(this.store.paths().writerWaitingPath(key)),
					Code.NONODE)
			.handle((event, failure) -> {
				if (failure != null) {
					logger.debug("Could not delete the writer-waiting mark of " + key, failure);
				}
				return null;
			});
	}

	/**
	 * Forget every mark: the session that owned their nodes ended.
	 */
	void sessionLost() {
		this.marks.clear();
	}

	/**
	 * Watch the readers of {@code key} for the first waiter in line, which found no
	 * holder: one reader's node at a time, running {@code gone} when it is deleted.
	 * @return whether readers hold the key (else nothing is watched)
	 */
	CompletableFuture<Boolean> watchReaders(String key, Runnable gone) {
		String readers = this.store.paths().readersPath(key);
		return this.store.background()
			.call(key, WAIT, (callback) -> this.store.client().getChildren().inBackground(callback).forPath(readers),
					Code.NONODE)
			.thenCompose((event) -> {
				List<String> children = (Background.code(event) == Code.OK) ? event.getChildren() : List.of();
				if (children.isEmpty()) {
					return CompletableFuture.completedFuture(false);
				}
				return this.store.background()
					.call(key, WAIT,
							(callback) -> this.store.client().checkExists().usingWatcher((Watcher) (watched) -> {
								if (watched.getType() == EventType.NodeDeleted) {
									gone.run();
								}
							}).inBackground(callback).forPath(readers + "/" + children.get(0)), Code.NONODE)
					.thenCompose((watched) -> (Background.code(watched) == Code.NONODE) ? watchReaders(key, gone)
							: CompletableFuture.completedFuture(true));
			});
	}

	/**
	 * Delete the mark of a writer that has not tried within its time to live: it gave up.
	 */
	private void expireLater(MarkId id, Mark mark, Duration delay) {
		CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Runnable::run).execute(() -> {
			if (this.marks.get(id) != mark) {
				return;
			}
			long left = mark.refreshedAtNanos + WRITER_WAITING_NANOS - System.nanoTime();
			if (left > 0) {
				expireLater(id, mark, Duration.ofNanos(left));
			}
			else if (this.marks.remove(id, mark) && mark.own) {
				delete(id.key());
			}
		});
	}

	private record MarkId(String key, String token) {

	}

	/**
	 * A writer refused by readers: when it last tried, and whether it created the key's
	 * mark.
	 */
	private static final class Mark {

		volatile long refreshedAtNanos;

		volatile boolean own;

		void refreshed() {
			this.refreshedAtNanos = System.nanoTime();
		}

	}

}
