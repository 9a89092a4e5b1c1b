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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Subscription;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.jspecify.annotations.Nullable;

/**
 * The line of waiters of each key: a waiter (a waiting client, or a fair caller) keeps
 * one ephemeral sequential queue node ({@link LockPaths}) for its whole wait, and watches
 * only the node just before its own, or the holder node when its own is first (or, while
 * readers hold the key instead, one reader's node at a time: {@link WriterMarks}); so a
 * release wakes the first waiter alone, and a waiter leaving wakes none (its successor
 * only moves its watch). The node goes when its waiter is granted (in the grant's own
 * transaction), leaves, stops refreshing its place within its time to live, or loses its
 * session. A fair caller's place first in line holds the key's reservation
 * ({@link FairReservation}).
 *
 * @author distlock
 * @since 0.1.0
 */
final class WaitingLine {

	private static final Log logger = LogFactory.getLog(WaitingLine.class);

	private static final String WAIT = "wait for";

	/** How many times a claim is sent at most when the line changed under it. */
	private static final int CLAIMS = 3;

	private final ZooKeeperLockStore store;

	private final Map<PlaceId, Place> places = new ConcurrentHashMap<>();

	private final Map<PlaceId, Set<Runnable>> listeners = new ConcurrentHashMap<>();

	private final FairReservation reservation;

	WaitingLine(ZooKeeperLockStore store) {
		this.store = store;
		this.reservation = new FairReservation(store);
	}

	/**
	 * Take {@code key} for a waiting client: a grant deletes the client's queue node in
	 * its own transaction; a refusal keeps the client's place in the line (taking one the
	 * first time). While the place's watch has not fired the attempt is refused without a
	 * request: the key is held, or another client is before it in line.
	 */
	CompletableFuture<Attempt> take(String key, String token, String waiter, Duration waiterTtl, boolean again) {
		Place waiting = this.places.get(new PlaceId(key, waiter));
		if (waiting != null && waiting.armed && waiting.ready.isDone()) {
			// Its watch has not fired: the key is held, or another client is first in
			// line
			waiting.refreshed(waiterTtl);
			this.store.marks().refresh(key, token);
			return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
		}
		String place = placeOf(key, waiter);
		List<CuratorOp> extra = new ArrayList<>(1);
		if (place != null) {
			try {
				extra.add(this.store.client().transactionOp().delete().forPath(place));
			}
			catch (Exception ex) {
				return CompletableFuture.failedFuture(new LockBackendException(key, "acquire", ex));
			}
		}
		return this.store.take(key, token, true, extra, true).thenCompose((taken) -> {
			if (taken.failedExtra() >= 0 && again) {
				// The place is gone (its waiter's time to live ran out): try without it
				granted(key, waiter);
				return take(key, token, waiter, waiterTtl, false);
			}
			if (taken.attempt().acquired()) {
				if (place != null) {
					granted(key, waiter);
				}
				return CompletableFuture.completedFuture(taken.attempt());
			}
			if (taken.reserved()) {
				// Only the fair line's reservation is in the way: try again once it is
				// found kept for a caller no longer in line, else wait for it to pass on
				return this.reservation.clearIfStale(key).thenCompose((cleared) -> {
					if (cleared && again) {
						return take(key, token, waiter, waiterTtl, false);
					}
					return stay(key, waiter, waiterTtl, false, true).thenApply((staying) -> taken.attempt());
				});
			}
			return stay(key, waiter, waiterTtl, false, false).thenApply((staying) -> taken.attempt());
		});
	}

	/**
	 * Take {@code key} in arrival order for the fair caller {@code token}: the head of
	 * the line claims the key once its holder is gone; a caller without a place takes the
	 * key only while no head has reserved it, else it joins the line (when it may wait).
	 * A place that has not heard from its caller within {@code grantTimeout} leaves the
	 * line, its reservation with it.
	 */
	CompletableFuture<Attempt> takeFair(String key, String token, @Nullable Duration grantTimeout) {
		Place place = this.places.get(new PlaceId(key, token));
		if (place != null) {
			if (grantTimeout != null) {
				place.refreshed(grantTimeout);
			}
			if (!place.ready.isDone() || place.armed) {
				// Its watch has not fired: the key is held, or another caller is before
				// it
				this.store.marks().refresh(key, token);
				return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
			}
			return place.head ? claim(place) : arm(place).thenCompose((armed) -> claimIfFree(place));
		}
		if (grantTimeout != null && waitsFairly(key)) {
			// Fair callers of this instance are in line already: the take would be
			// refused, so the caller joins the line at once
			return join(key, token, grantTimeout);
		}
		return this.store.take(key, token, true, List.of(), grantTimeout != null).thenCompose((taken) -> {
			if (taken.attempt().acquired() || grantTimeout == null) {
				return CompletableFuture.completedFuture(taken.attempt());
			}
			return join(key, token, grantTimeout);
		});
	}

	private CompletableFuture<Attempt> join(String key, String token, Duration grantTimeout) {
		return stay(key, token, grantTimeout, true, false).thenCompose((staying) -> {
			Place joined = this.places.get(new PlaceId(key, token));
			return (joined != null) ? claimIfFree(joined)
					: CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
		});
	}

	/**
	 * Return whether a fair caller of this instance has a place in the line of
	 * {@code key}.
	 */
	private boolean waitsFairly(String key) {
		for (Place place : this.places.values()) {
			if (place.fair && place.id.key().equals(key)) {
				return true;
			}
		}
		return false;
	}

	private CompletableFuture<Attempt> claimIfFree(Place place) {
		return (place.head && !place.armed) ? claim(place)
				: CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
	}

	/**
	 * Claim the key for the line's head: take it, deleting the head's queue node and
	 * passing the reservation on to the next fair caller in the same transaction
	 * ({@link FairReservation#addHandOn}). With no place known after its own, the head
	 * reads the line first.
	 */
	private CompletableFuture<Attempt> claim(Place place) {
		return claim(place, CLAIMS, false, true);
	}

	private CompletableFuture<Attempt> claim(Place place, int attemptsLeft, boolean lineRead, boolean reserved) {
		String key = place.id.key();
		String path = place.path;
		if (path == null) {
			this.places.remove(place.id, place);
			return CompletableFuture.completedFuture(ZooKeeperLockStore.busy());
		}
		if (place.successor == null && !lineRead) {
			return this.reservation.line(key).thenCompose((line) -> {
				int index = line.indexOf(LockPaths.name(path));
				place.successor = (index >= 0 && index + 1 < line.size()) ? line.get(index + 1) : null;
				return claim(place, attemptsLeft, true, reserved);
			});
		}
		List<CuratorOp> extra = new ArrayList<>(3);
		try {
			extra.add(this.store.client().transactionOp().delete().forPath(path));
			this.reservation.addHandOn(extra, key, place.successor, reserved);
		}
		catch (Exception ex) {
			return CompletableFuture.failedFuture(new LockBackendException(key, "acquire", ex));
		}
		boolean checksSuccessor = extra.size() == 3;
		return this.store.take(key, place.id.waiter(), false, extra, true).thenCompose((taken) -> {
			int failed = taken.failedExtra();
			if (taken.attempt().acquired() || failed == 0) {
				// Granted, or the place is gone (its time to live ran out): the caller
				// asks again without it
				this.places.remove(place.id, place);
				return CompletableFuture.completedFuture(taken.attempt());
			}
			if (failed > 0 && attemptsLeft > 1) {
				if (failed == 1 && checksSuccessor) {
					// The next place left: read the line again
					place.successor = null;
					return claim(place, attemptsLeft - 1, false, reserved);
				}
				// The reservation went (with its creator's session, say), or came back
				return claim(place, attemptsLeft - 1, lineRead, !reserved);
			}
			return arm(place).thenApply((armed) -> taken.attempt());
		});
	}

	/**
	 * Return the path of the queue node of {@code waiter} on {@code key}, or {@code null}
	 * when it has none.
	 */
	@Nullable String placeOf(String key, String waiter) {
		Place place = this.places.get(new PlaceId(key, waiter));
		return (place != null) ? place.path : null;
	}

	/**
	 * Take or keep the place of {@code waiter} after a refused attempt: create its queue
	 * node the first time, and watch its predecessor (or the holder) again when its last
	 * watch fired. Complete once the watch is set, so that no release in between goes
	 * unheard.
	 */
	CompletableFuture<Void> stay(String key, String waiter, Duration timeToLive, boolean fair, boolean reserved) {
		PlaceId id = new PlaceId(key, waiter);
		Place[] created = new Place[1];
		Place place = this.places.computeIfAbsent(id, (placeId) -> created[0] = new Place(placeId, fair));
		place.refreshed(timeToLive);
		place.reservedAhead = reserved;
		if (created[0] != null) {
			place.ready = create(place).thenCompose((path) -> {
				place.path = path;
				expireLater(place, timeToLive);
				return arm(place);
			});
			return place.ready;
		}
		return place.ready.thenCompose((armed) -> place.armed ? CompletableFuture.completedFuture(null) : arm(place));
	}

	/**
	 * Forget the place of {@code waiter}, whose queue node a grant's transaction deleted.
	 */
	void granted(String key, String waiter) {
		this.places.remove(new PlaceId(key, waiter));
	}

	/**
	 * Leave the line: delete the queue node of {@code waiter}, if any.
	 */
	CompletableFuture<Void> leave(String key, String waiter) {
		Place place = this.places.remove(new PlaceId(key, waiter));
		if (place == null) {
			return CompletableFuture.completedFuture(null);
		}
		return place.ready.handle((armed, failure) -> place.path).thenCompose((path) -> {
			if (path == null) {
				return CompletableFuture.completedFuture(null);
			}
			return place.fair ? this.reservation.leave(key, waiter, path, place.head)
					: this.reservation.deleteNode(key, path);
		});
	}

	/**
	 * Call {@code listener} when the place of {@code waiter} on {@code key} may have
	 * reached the lock: the holder node it watched was deleted, or its place was lost.
	 */
	Subscription listen(String key, String waiter, Runnable listener) {
		PlaceId id = new PlaceId(key, waiter);
		this.listeners.computeIfAbsent(id, (placeId) -> new CopyOnWriteArraySet<>()).add(listener);
		return () -> this.listeners.computeIfPresent(id, (placeId, set) -> {
			set.remove(listener);
			return set.isEmpty() ? null : set;
		});
	}

	/**
	 * Forget every place: the session that owned their nodes ended. Every listener runs,
	 * so that its waiter tries again and takes a new place.
	 */
	void sessionLost() {
		this.places.clear();
		wakeAll();
	}

	/**
	 * Run every listener once: releases may have been missed while the connection was
	 * down.
	 */
	void wakeAll() {
		this.listeners.keySet().forEach(this::wake);
	}

	private CompletableFuture<String> create(Place place) {
		String key = place.id.key();
		return this.store.background()
			.call(key, WAIT,
					(callback) -> NodeAcls
						.apply(this.store.client()
							.create()
							.creatingParentContainersIfNeeded()
							.withMode(CreateMode.EPHEMERAL_SEQUENTIAL), this.store.acl())
						.inBackground(callback)
						.forPath(
								place.fair ? this.store.paths().fairQueuePrefix(key, place.id.waiter())
										: this.store.paths().queuePrefix(key, place.id.waiter()),
								place.id.waiter().getBytes(StandardCharsets.UTF_8)),
					(late) -> this.reservation.deleteNode(key, late.getName()))
			.thenApply((event) -> event.getName());
	}

	/**
	 * Watch the node just before the place's own, or the holder node when its own is
	 * first; wake the waiter at once when the holder node is missing, and drop the place
	 * when its own node is gone.
	 */
	private CompletableFuture<Void> arm(Place place) {
		return arm(place, false);
	}

	/**
	 * Arm the place as {@link #arm(Place)} does; a fair place whose predecessor just went
	 * ({@code movedUp}) also reads the reservation and watches the holder in the same
	 * round trip, since the claim before it most likely reserved the key for it.
	 */
	private CompletableFuture<Void> arm(Place place, boolean movedUp) {
		String key = place.id.key();
		String path = place.path;
		if (path == null || this.places.get(place.id) != place) {
			return CompletableFuture.completedFuture(null);
		}
		place.armed = true;
		boolean speculate = movedUp && place.fair && !place.head;
		// Sent in this order, answered in this order: the line is read before the
		// reservation
		CompletableFuture<List<String>> read = this.reservation.line(key);
		CompletableFuture<@Nullable String> kept = speculate ? this.reservation.keptFor(key)
				: CompletableFuture.<@Nullable String>completedFuture(null);
		CompletableFuture<@Nullable CuratorEvent> holder = speculate
				? watchHolder(place, Watched.HEAD_HOLDER).<@Nullable CuratorEvent>thenApply((event) -> event)
				: CompletableFuture.<@Nullable CuratorEvent>completedFuture(null);
		return read.thenCompose((line) -> kept.thenCompose((keptFor) -> holder.thenCompose((watched) -> {
			int index = line.indexOf(LockPaths.name(path));
			if (index < 0) {
				lost(place);
				return CompletableFuture.completedFuture(null);
			}
			place.successor = (index + 1 < line.size()) ? line.get(index + 1) : null;
			if (index > 0) {
				return watch(place, this.store.paths().child(key, line.get(index - 1)), Watched.PLACE);
			}
			if (watched != null && place.id.waiter().equals(keptFor)) {
				// The claim before it reserved the key for it, and the holder is watched
				place.head = true;
				if (Background.code(watched) == Code.NONODE) {
					return holderGone(place);
				}
				return CompletableFuture.completedFuture(null);
			}
			if (place.fair && !place.head) {
				return reserve(place);
			}
			if (place.reservedAhead) {
				// A fair caller's reservation refused the take: wait for it to pass on
				return watch(place, this.store.paths().nextPath(key), Watched.RESERVATION);
			}
			return watch(place, this.store.paths().holderPath(key), Watched.HOLDER);
		}))).exceptionally((failure) -> {
			// The waiter re-checks on its timer; its next refusal watches again
			place.armed = false;
			logger.debug("Could not watch the waiting line of " + key, failure);
			return null;
		});
	}

	/**
	 * Watch {@code path}, the holder node, the node before the place's own, or the fair
	 * line's reservation: wake the waiter when the holder node is gone, move the watch
	 * when the other node is gone or the reservation changed.
	 */
	private CompletableFuture<Void> watch(Place place, String path, Watched watched) {
		return exists(place, path, watched).thenCompose((event) -> {
			if (Background.code(event) != Code.NONODE) {
				return CompletableFuture.completedFuture(null);
			}
			if (watched == Watched.RESERVATION) {
				place.reservedAhead = false;
			}
			return (watched == Watched.HOLDER) ? holderGone(place) : arm(place);
		});
	}

	private CompletableFuture<CuratorEvent> watchHolder(Place place, Watched watched) {
		return exists(place, this.store.paths().holderPath(place.id.key()), watched);
	}

	private CompletableFuture<CuratorEvent> exists(Place place, String path, Watched watched) {
		return this.store.background()
			.call(place.id.key(), WAIT,
					(callback) -> this.store.client()
						.checkExists()
						.usingWatcher((org.apache.zookeeper.Watcher) (event) -> fired(place, watched, event))
						.inBackground(callback)
						.forPath(path),
					Code.NONODE);
	}

	/**
	 * The holder node is missing: no writer holds the key, so the waiter tries at once,
	 * unless readers hold it (it then waits for the last to leave).
	 */
	private CompletableFuture<Void> holderGone(Place place) {
		String key = place.id.key();
		return this.store.marks().watchReaders(key, () -> {
			if (this.places.get(place.id) == place) {
				arm(place);
			}
		}).thenAccept((readers) -> {
			if (!readers) {
				place.armed = false;
				wake(place.id);
			}
		});
	}

	/**
	 * Reserve the key for a fair place first in line ({@link FairReservation#reserve}),
	 * then watch the holder; while another caller's reservation stands, watch it instead.
	 */
	private CompletableFuture<Void> reserve(Place place) {
		String key = place.id.key();
		return this.reservation.reserve(key, place.id.waiter()).thenCompose((reserved) -> {
			if (!reserved) {
				return watch(place, this.store.paths().nextPath(key), Watched.RESERVATION);
			}
			place.head = true;
			return watch(place, this.store.paths().holderPath(key), Watched.HOLDER);
		});
	}

	private void fired(Place place, Watched watched, WatchedEvent event) {
		boolean changed = event.getType() == EventType.NodeDeleted
				|| (watched == Watched.RESERVATION && event.getType() == EventType.NodeDataChanged);
		if (!changed || this.places.get(place.id) != place || (watched == Watched.HEAD_HOLDER && !place.head)) {
			return;
		}
		if (watched == Watched.HOLDER || watched == Watched.HEAD_HOLDER) {
			place.armed = false;
			wake(place.id);
			return;
		}
		if (watched == Watched.RESERVATION) {
			place.reservedAhead = false;
		}
		arm(place, watched == Watched.PLACE);
	}

	private void lost(Place place) {
		this.places.remove(place.id, place);
		wake(place.id);
	}

	private void wake(PlaceId id) {
		Set<Runnable> waiting = this.listeners.get(id);
		if (waiting != null) {
			for (Runnable listener : waiting) {
				try {
					listener.run();
				}
				catch (RuntimeException ex) {
					logger.warn("A wake-up listener failed", ex);
				}
			}
		}
	}

	/**
	 * Leave the line for a waiter that did not refresh its place within its time to live:
	 * it stopped waiting without leaving.
	 */
	private void expireLater(Place place, Duration timeToLive) {
		CompletableFuture.delayedExecutor(timeToLive.toNanos(), TimeUnit.NANOSECONDS, Runnable::run).execute(() -> {
			if (this.places.get(place.id) != place) {
				return;
			}
			long left = place.expiresAtNanos - System.nanoTime();
			if (left > 0) {
				expireLater(place, Duration.ofNanos(left));
			}
			else {
				leave(place.id.key(), place.id.waiter());
			}
		});
	}

	private record PlaceId(String key, String waiter) {

	}

	/**
	 * What a place watches.
	 */
	private enum Watched {

		/** The holder node: its deletion wakes the waiter. */
		HOLDER,

		/**
		 * The holder node, watched before the place knows it is the fair line's head: its
		 * deletion wakes the waiter once the place is.
		 */
		HEAD_HOLDER,

		/** The queue node before the place's own: its deletion moves the watch. */
		PLACE,

		/** The fair line's reservation: its deletion or change moves the watch. */
		RESERVATION

	}

	/**
	 * One waiter's place: its queue node, once created.
	 */
	private static final class Place {

		final PlaceId id;

		volatile @Nullable String path;

		/** Whether the place is a fair caller's, which reserves the key when first. */
		final boolean fair;

		/** Whether the place holds the fair line's reservation. */
		volatile boolean head;

		/**
		 * The queue node after the place's own when the line was last read, if any: a
		 * fair head's claim passes the reservation on to it.
		 */
		volatile @Nullable String successor;

		/**
		 * Whether a fair caller's reservation alone refused the place's last take: first
		 * in line, the place then watches the reservation rather than the holder.
		 */
		volatile boolean reservedAhead;

		volatile boolean armed;

		volatile long expiresAtNanos;

		volatile CompletableFuture<Void> ready = CompletableFuture.completedFuture(null);

		Place(PlaceId id, boolean fair) {
			this.id = id;
			this.fair = fair;
		}

		void refreshed(Duration timeToLive) {
			this.expiresAtNanos = System.nanoTime() + timeToLive.toNanos();
		}

	}

}
