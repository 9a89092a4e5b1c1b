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
package dev.distlock.store.test;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.distlock.store.FairGrantWakeUpExtension;
import dev.distlock.store.FairGrantWakeUpExtension.ClockedAttempt;
import dev.distlock.store.FairGrantWakeUpExtension.FairGrant;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.LocalHandOverExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Subscription;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.store.WakeOneExtension;

import org.springframework.util.Assert;

import static dev.distlock.store.test.StorePair.extension;
import static dev.distlock.store.test.StorePair.join;
import static dev.distlock.store.test.StorePair.key;
import static dev.distlock.store.test.StorePair.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What each extension obliges the required operations of {@link LockStore} to do, one
 * check per duty, as the table of {@link LockStore}'s Javadoc states them. A failure
 * names the extension's duty ({@code FairQueueExtension duty: release grants the lock to
 * the queue's head}...); the checks of an extension the store does not implement are
 * skipped. The extensions that add behaviour with their own methods only (hand-over,
 * several keys, inspection) have no duty here: {@link LockStoreSpiChecks} checks their
 * methods.
 * <p>
 * Each check makes the stores it needs from the supplier, two per check as two
 * application instances are, and closes them.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class ExtensionDutyChecks {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration GRANT_TIMEOUT = Duration.ofSeconds(5);

	private final Supplier<LockStore> stores;

	/**
	 * Create the checks.
	 * @param stores makes a new store on the backend under test at each call
	 */
	public ExtensionDutyChecks(Supplier<LockStore> stores) {
		Assert.notNull(stores, "'stores' must not be null");
		this.stores = stores;
	}

	/**
	 * {@link ReadLockExtension}: {@code LockStore.tryAcquire} refuses a key that live
	 * readers hold.
	 */
	public void readLocksMakeTryAcquireRefuseAKeyReadersHold() {
		try (StorePair two = new StorePair(this.stores)) {
			ReadLockExtension one = extension(two.one, ReadLockExtension.class);
			String key = key("duty-read");
			assertThat(join(one.tryAcquireRead(key, "reader:1", LEASE)).acquired())
				.as("ReadLockExtension.tryAcquireRead")
				.isTrue();
			assertThat(join(two.other.tryAcquire(key, "writer:1", LEASE)).acquired())
				.as("ReadLockExtension duty: tryAcquire refuses a key readers hold")
				.isFalse();
			join(one.readGrants().release(key, "reader:1"));
			await().atMost(5, TimeUnit.SECONDS)
				.until(() -> join(two.other.tryAcquire(key, "writer:1", LEASE)).acquired());
			join(two.other.release(key, "writer:1"));
		}
	}

	/**
	 * {@link ReadLockExtension}: a writer that {@code LockStore.tryAcquire} refused again
	 * because readers hold the key (it waits for them) leaves a mark that refuses new
	 * readers.
	 */
	public void readLocksMakeARefusedWriterKeepNewReadersOut() {
		try (StorePair two = new StorePair(this.stores)) {
			ReadLockExtension one = extension(two.one, ReadLockExtension.class);
			ReadLockExtension other = extension(two.other, ReadLockExtension.class);
			String key = key("duty-read-mark");
			join(one.tryAcquireRead(key, "reader:1", LEASE));
			join(two.other.tryAcquire(key, "writer:1", LEASE));
			join(two.other.tryAcquire(key, "writer:1", LEASE));
			assertThat(join(other.tryAcquireRead(key, "reader:2", LEASE)).acquired())
				.as("ReadLockExtension duty: a writer refused again keeps new readers out")
				.isFalse();
			join(one.readGrants().release(key, "reader:1"));
			await().atMost(5, TimeUnit.SECONDS)
				.until(() -> join(two.other.tryAcquire(key, "writer:1", LEASE)).acquired());
			join(two.other.release(key, "writer:1"));
		}
	}

	/**
	 * {@link FairQueueExtension}: {@code LockStore.release} of a key whose queue has a
	 * live head grants the lock to that head: no other {@code tryAcquire} gets it, and
	 * the head's next {@code tryAcquireFair} claims it with a higher fencing token.
	 */
	public void fairQueueMakesReleaseGrantTheLockToTheQueueHead() {
		try (StorePair two = new StorePair(this.stores)) {
			FairQueueExtension other = extension(two.other, FairQueueExtension.class);
			String key = key("duty-fair");
			Attempt held = join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(join(other.tryAcquireFair(key, "waiter:1", LEASE, GRANT_TIMEOUT)).acquired())
				.as("FairQueueExtension.tryAcquireFair(held key)")
				.isFalse();
			join(two.one.release(key, "owner:1"));
			assertThat(join(two.one.tryAcquire(key, "intruder:1", LEASE)).acquired())
				.as("FairQueueExtension duty: release grants the lock to the queue's head, yet tryAcquire by another")
				.isFalse();
			Attempt claimed = join(other.tryAcquireFair(key, "waiter:1", LEASE, GRANT_TIMEOUT));
			assertThat(claimed.acquired())
				.as("FairQueueExtension duty: the queue's head claims the lock release granted")
				.isTrue();
			assertThat(claimed.fencingToken()).as("FairQueueExtension duty: fencing token of the granted head")
				.isGreaterThan(held.fencingToken());
			join(two.other.release(key, "waiter:1"));
		}
	}

	/**
	 * {@link FairGrantWakeUpExtension}: the {@code LockStore.release} that grants the
	 * lock to the queue's head passes that grant to the head's {@code onFairGrant}
	 * listener.
	 */
	public void fairGrantWakeUpsMakeReleaseCarryTheGrant() {
		try (StorePair two = new StorePair(this.stores)) {
			FairGrantWakeUpExtension other = extension(two.other, FairGrantWakeUpExtension.class);
			String key = key("duty-fair-grant");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			AtomicReference<FairGrant> carried = new AtomicReference<>();
			try (Subscription subscription = other.onFairGrant(key, "waiter:1", (grant) -> {
				if (grant != null) {
					carried.set(grant);
				}
			})) {
				await().atMost(10, TimeUnit.SECONDS)
					.pollInterval(Duration.ofMillis(200))
					.alias("FairGrantWakeUpExtension duty: release carries the grant to the queue's head")
					.until(() -> {
						if (join(two.one.tryAcquire(key, "owner:1", LEASE)).acquired()) {
							join(other.tryAcquireFair(key, "waiter:1", LEASE, GRANT_TIMEOUT));
							join(two.one.release(key, "owner:1"));
						}
						return carried.get() != null;
					});
			}
			join(other.leaveFairQueue(key, "waiter:1"));
		}
	}

	/**
	 * {@link FairGrantWakeUpExtension}: a refused fair attempt tells the store's clock.
	 */
	public void fairGrantWakeUpsTellTheStoreClock() {
		try (StorePair two = new StorePair(this.stores)) {
			FairGrantWakeUpExtension other = extension(two.other, FairGrantWakeUpExtension.class);
			String key = key("duty-fair-clock");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			ClockedAttempt refused = join(other.tryAcquireFairClocked(key, "waiter:1", LEASE, GRANT_TIMEOUT));
			assertThat(refused.attempt().acquired()).as("FairGrantWakeUpExtension.tryAcquireFairClocked(held key)")
				.isFalse();
			assertThat(refused.knowsStoreClock()).as("FairGrantWakeUpExtension duty: a refusal tells the store's clock")
				.isTrue();
			join(other.leaveFairQueue(key, "waiter:1"));
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@link WakeOneExtension}: {@code LockStore.release} wakes the registered waiter
	 * alone, not a waiting client that did not register.
	 */
	public void wakeOneMakesReleaseWakeTheRegisteredWaiterAlone() {
		try (StorePair two = new StorePair(this.stores)) {
			WakeOneExtension other = extension(two.other, WakeOneExtension.class);
			String key = key("duty-wake-one");
			String registered = "client-" + UUID.randomUUID();
			String unregistered = "client-" + UUID.randomUUID();
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			AtomicInteger woken = new AtomicInteger();
			AtomicInteger bystander = new AtomicInteger();
			try (Subscription wakes = other.onRelease(key, registered, woken::incrementAndGet);
					Subscription misses = other.onRelease(key, unregistered, bystander::incrementAndGet)) {
				await().atMost(10, TimeUnit.SECONDS)
					.pollInterval(Duration.ofMillis(200))
					.alias("WakeOneExtension duty: release wakes the registered waiter")
					.until(() -> {
						if (join(two.one.tryAcquire(key, "owner:1", LEASE)).acquired()) {
							join(other.tryAcquire(key, "waiting:1", LEASE, registered, Duration.ofSeconds(3)));
							join(two.one.release(key, "owner:1"));
						}
						return woken.get() > 0;
					});
				// Both subscriptions listen now (confirming one may wake its listener):
				// one
				// release more, with the waiter registered again
				bystander.set(0);
				woken.set(0);
				assertThat(join(two.one.tryAcquire(key, "owner:1", LEASE)).acquired())
					.as("LockStore.tryAcquire(free key)")
					.isTrue();
				join(other.tryAcquire(key, "waiting:1", LEASE, registered, Duration.ofSeconds(3)));
				join(two.one.release(key, "owner:1"));
				await().atMost(10, TimeUnit.SECONDS)
					.alias("WakeOneExtension duty: release wakes the registered waiter")
					.until(() -> woken.get() > 0);
				// Nothing may wake the bystander meanwhile: a wake-up takes far less
				sleep(Duration.ofMillis(300));
				assertThat(bystander.get())
					.as("WakeOneExtension duty: release wakes one registered waiter alone, "
							+ "yet a client that did not register woke")
					.isZero();
			}
			join(other.leave(key, registered));
		}
	}

	/**
	 * {@link SessionLeaseExtension}: {@code LockStore.tryAcquire} ignores its lease; the
	 * lock lives as long as the store's session, past that lease.
	 */
	public void sessionLeasesKeepALockPastItsLease() {
		try (StorePair two = new StorePair(this.stores)) {
			extension(two.one, SessionLeaseExtension.class);
			String key = key("duty-session");
			Duration lease = Duration.ofMillis(300);
			assertThat(join(two.one.tryAcquire(key, "owner:1", lease)).acquired()).as("LockStore.tryAcquire(free key)")
				.isTrue();
			// Nothing may end the lock meanwhile: past its lease, twice over
			sleep(lease.multipliedBy(2));
			assertThat(join(two.other.isOwner(key, "owner:1")))
				.as("SessionLeaseExtension duty: a lock lives as long as the session, past its 300 ms lease")
				.isTrue();
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@link LocalHandOverExtension}: every fencing token a store grants is a multiple of
	 * its room, so that consecutive grants of a key differ by at least the room: by
	 * {@code LockStore.tryAcquire}, by another store's, and by
	 * {@link HandOverExtension#handOver} if the store hands over.
	 */
	public void localHandOversFindRoomBetweenTwoGrants() {
		try (StorePair two = new StorePair(this.stores)) {
			long room = extension(two.one, LocalHandOverExtension.class).fenceRoom();
			assertThat(room).as("LocalHandOverExtension.fenceRoom()").isGreaterThanOrEqualTo(2);
			assertThat(extension(two.other, LocalHandOverExtension.class).fenceRoom())
				.as("LocalHandOverExtension duty: every store of a backend has the same room")
				.isEqualTo(room);
			String key = key("duty-local-hand-over");
			long first = spaced(join(two.one.tryAcquire(key, "owner:1", LEASE)), room, "tryAcquire(free key)");
			join(two.one.release(key, "owner:1"));
			long second = spaced(join(two.other.tryAcquire(key, "owner:2", LEASE)), room,
					"tryAcquire(released key), another store");
			assertThat(second).as("LocalHandOverExtension duty: a later grant leaves room after an earlier one")
				.isGreaterThanOrEqualTo(first + room);
			HandOverExtension handOvers = two.other.extension(HandOverExtension.class);
			if (handOvers != null) {
				Attempt handedOver = join(handOvers.handOver(key, "owner:2", "owner:3", LEASE));
				if (handedOver == null) {
					throw new AssertionError("HandOverExtension.handOver did not hand over a lock nobody waits for");
				}
				long third = spaced(handedOver, room, "handOver");
				assertThat(third).as("LocalHandOverExtension duty: a hand-over leaves room after the grant before")
					.isGreaterThanOrEqualTo(second + room);
				join(two.other.release(key, "owner:3"));
			}
			else {
				join(two.other.release(key, "owner:2"));
			}
		}
	}

	private static long spaced(Attempt attempt, long room, String grant) {
		assertThat(attempt.acquired()).as(grant).isTrue();
		long fence = attempt.fencingToken();
		assertThat(fence % room)
			.as("LocalHandOverExtension duty: the fencing token of %s (%s) is a multiple of %s", grant, fence, room)
			.isZero();
		return fence;
	}

}
