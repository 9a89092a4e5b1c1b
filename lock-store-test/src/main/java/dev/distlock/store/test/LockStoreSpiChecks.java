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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.distlock.store.HandOverExtension;
import dev.distlock.store.HandOverExtension.HandOff;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.InspectionExtension.KeyState;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.LockStore.Subscription;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;

import org.springframework.util.Assert;

import static dev.distlock.store.test.StorePair.extension;
import static dev.distlock.store.test.StorePair.join;
import static dev.distlock.store.test.StorePair.key;
import static dev.distlock.store.test.StorePair.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The store SPI checked method by method: each check calls a store's operations directly,
 * without a lock client, and a failure names the operation at fault
 * ({@code LockStore.release}, {@code ReadLockExtension.readGrants().release}...). The
 * contract kit runs every check on its store ({@link LockStoreContractTests}, group
 * "Store SPI"); a store author can also call them from tests of their own while the store
 * takes shape. Checks of an extension the store does not implement are skipped, with the
 * reason.
 * <p>
 * Each check makes the stores it needs from the supplier, all on one backend as the kit's
 * stores are, and closes them.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockStoreSpiChecks {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration SHORT = Duration.ofMillis(300);

	private final Supplier<LockStore> stores;

	/**
	 * Create the checks.
	 * @param stores makes a new store on the backend under test at each call
	 */
	public LockStoreSpiChecks(Supplier<LockStore> stores) {
		Assert.notNull(stores, "'stores' must not be null");
		this.stores = stores;
	}

	/**
	 * {@code tryAcquire} grants a free key with a positive fencing token, refuses a held
	 * one to another token, and raises the fencing token with every grant.
	 */
	public void tryAcquireGrantsFreeKeysOnlyWithRisingFencingTokens() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-acquire");
			Attempt first = join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(first.acquired()).as("LockStore.tryAcquire(free key) acquired").isTrue();
			assertThat(first.fencingToken()).as("LockStore.tryAcquire(free key) fencing token").isPositive();
			Attempt refused = join(two.other.tryAcquire(key, "owner:2", LEASE));
			assertThat(refused.acquired()).as("LockStore.tryAcquire(key held by another token) acquired").isFalse();
			assertThat(join(two.one.release(key, "owner:1"))).as("LockStore.release(key, owner)").isTrue();
			Attempt second = join(two.other.tryAcquire(key, "owner:2", LEASE));
			assertThat(second.acquired()).as("LockStore.tryAcquire(released key) acquired").isTrue();
			assertThat(second.fencingToken()).as("LockStore.tryAcquire fencing token of the next grant")
				.isGreaterThan(first.fencingToken());
			join(two.other.release(key, "owner:2"));
		}
	}

	/**
	 * {@code tryAcquire} answers a replay of a grant (the same token again, as a client
	 * re-sends a request whose reply was lost) with the same grant, not a refusal.
	 */
	public void tryAcquireAnswersAReplayWithTheSameGrant() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-acquire-replay");
			Attempt first = join(two.one.tryAcquire(key, "owner:1", LEASE));
			Attempt replay = join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(replay.acquired()).as("LockStore.tryAcquire replayed by the owner acquired").isTrue();
			assertThat(replay.fencingToken()).as("LockStore.tryAcquire replayed by the owner fencing token")
				.isEqualTo(first.fencingToken());
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@code release} frees the key for its owner only: another token's release changes
	 * nothing, and a release answers whether the token owned the key.
	 */
	public void releaseFreesTheKeyForItsOwnerOnly() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-release");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(join(two.other.release(key, "intruder:1"))).as("LockStore.release(key, another token)")
				.isFalse();
			assertThat(join(two.other.tryAcquire(key, "owner:2", LEASE)).acquired())
				.as("LockStore.release(key, another token) left the key held, yet tryAcquire")
				.isFalse();
			assertThat(join(two.one.release(key, "owner:1"))).as("LockStore.release(key, owner)").isTrue();
			assertThat(join(two.other.tryAcquire(key, "owner:2", LEASE)).acquired())
				.as("LockStore.release(key, owner) freed the key, yet tryAcquire")
				.isTrue();
			join(two.other.release(key, "owner:2"));
		}
	}

	/**
	 * {@code expireAfter} shortens the owner's lease (the key is free after it, and not
	 * before) and leaves another token's lock alone.
	 */
	public void expireAfterShortensTheOwnersLeaseOnly() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-expire-after");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(join(two.other.expireAfter(key, "intruder:1", Duration.ofMillis(1))))
				.as("LockStore.expireAfter(key, another token)")
				.isFalse();
			assertThat(join(two.one.expireAfter(key, "owner:1", SHORT))).as("LockStore.expireAfter(key, owner)")
				.isTrue();
			assertThat(join(two.other.tryAcquire(key, "owner:2", LEASE)).acquired())
				.as("LockStore.expireAfter(key, owner, 300 ms): tryAcquire at once")
				.isFalse();
			await().atMost(5, TimeUnit.SECONDS)
				.alias("LockStore.expireAfter(key, owner, 300 ms) lets the lock end after 300 ms")
				.until(() -> join(two.other.tryAcquire(key, "owner:2", LEASE)).acquired());
			join(two.other.release(key, "owner:2"));
		}
	}

	/**
	 * {@code renew} extends the leases their tokens own (the lock outlives its first
	 * lease), reports the others lost, and never re-creates a lock that is gone.
	 */
	public void renewExtendsOwnedLeasesAndReportsOthersLost() {
		try (StorePair two = new StorePair(this.stores)) {
			String owned = key("spi-renew-owned");
			String foreign = key("spi-renew-foreign");
			String gone = key("spi-renew-gone");
			join(two.one.tryAcquire(owned, "owner:1", SHORT));
			join(two.other.tryAcquire(foreign, "owner:2", LEASE));
			List<RenewalOutcome> outcomes = join(two.one.renew(List.of(new Renewal(owned, "owner:1"),
					new Renewal(foreign, "owner:1"), new Renewal(gone, "owner:1")), LEASE));
			assertThat(outcomes).as("LockStore.renew(owned, another's, gone)")
				.containsExactly(RenewalOutcome.RENEWED, RenewalOutcome.LOST, RenewalOutcome.LOST);
			// Nothing may free the renewed lock meanwhile: past its first lease, twice
			// over
			sleep(SHORT.multipliedBy(2));
			assertThat(join(two.other.tryAcquire(owned, "owner:3", LEASE)).acquired())
				.as("LockStore.renew(owned) extended the lease past its first 300 ms, yet tryAcquire")
				.isFalse();
			assertThat(join(two.other.tryAcquire(gone, "owner:3", LEASE)).fencingToken())
				.as("LockStore.renew(gone) did not re-create it: a new grant")
				.isPositive();
			join(two.one.release(owned, "owner:1"));
			join(two.other.release(foreign, "owner:2"));
			join(two.other.release(gone, "owner:3"));
		}
	}

	/**
	 * {@code isOwner} answers {@code true} for the owner only, and {@code false} once it
	 * released.
	 */
	public void isOwnerTellsTheOwnerOnly() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-is-owner");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			assertThat(join(two.other.isOwner(key, "owner:1"))).as("LockStore.isOwner(key, owner)").isTrue();
			assertThat(join(two.other.isOwner(key, "intruder:1"))).as("LockStore.isOwner(key, another token)")
				.isFalse();
			join(two.one.release(key, "owner:1"));
			assertThat(join(two.other.isOwner(key, "owner:1"))).as("LockStore.isOwner(key, owner after release)")
				.isFalse();
		}
	}

	/**
	 * {@code onRelease} runs its listener when another store of the backend releases the
	 * key.
	 */
	public void onReleaseHearsAReleaseByAnotherStore() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("spi-on-release");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			AtomicInteger heard = new AtomicInteger();
			try (Subscription subscription = two.other.onRelease(key, heard::incrementAndGet)) {
				// A subscription may need a moment before the backend confirms it
				await().atMost(10, TimeUnit.SECONDS)
					.pollInterval(Duration.ofMillis(200))
					.alias("LockStore.onRelease hears a release by another store")
					.until(() -> {
						if (join(two.one.tryAcquire(key, "owner:1", LEASE)).acquired()) {
							join(two.one.release(key, "owner:1"));
						}
						return heard.get() > 0;
					});
			}
		}
	}

	/**
	 * {@link ReadLockExtension}: readers share a key that a writer cannot take meanwhile;
	 * {@code readGrants().release} frees it for the writer once the last reader left.
	 */
	public void readLocksAreSharedAndKeepWritersOut() {
		try (StorePair two = new StorePair(this.stores)) {
			ReadLockExtension one = extension(two.one, ReadLockExtension.class);
			ReadLockExtension other = extension(two.other, ReadLockExtension.class);
			String key = key("spi-read");
			assertThat(join(one.tryAcquireRead(key, "reader:1", LEASE)).acquired())
				.as("ReadLockExtension.tryAcquireRead(free key)")
				.isTrue();
			assertThat(join(other.tryAcquireRead(key, "reader:2", LEASE)).acquired())
				.as("ReadLockExtension.tryAcquireRead(key read by another)")
				.isTrue();
			assertThat(join(other.readGrants().isOwner(key, "reader:1")))
				.as("ReadLockExtension.readGrants().isOwner(key, reader)")
				.isTrue();
			assertThat(join(two.other.tryAcquire(key, "writer:1", LEASE)).acquired())
				.as("LockStore.tryAcquire(key read by two readers)")
				.isFalse();
			assertThat(join(one.readGrants().release(key, "reader:1")))
				.as("ReadLockExtension.readGrants().release(key, reader)")
				.isTrue();
			assertThat(join(other.readGrants().release(key, "reader:2")))
				.as("ReadLockExtension.readGrants().release(key, last reader)")
				.isTrue();
			assertThat(join(other.readGrants().isOwner(key, "reader:1")))
				.as("ReadLockExtension.readGrants().isOwner(key, reader after release)")
				.isFalse();
			await().atMost(5, TimeUnit.SECONDS)
				.alias("LockStore.tryAcquire after ReadLockExtension.readGrants().release of the last reader")
				.until(() -> join(two.other.tryAcquire(key, "writer:1", LEASE)).acquired());
			join(two.other.release(key, "writer:1"));
		}
	}

	/**
	 * {@link SeveralKeysExtension}: {@code tryAcquireAll} takes every key or none.
	 */
	public void severalKeysAreTakenAllOrNothing() {
		try (StorePair two = new StorePair(this.stores)) {
			SeveralKeysExtension one = extension(two.one, SeveralKeysExtension.class);
			String tag = UUID.randomUUID().toString();
			List<String> keys = List.of("{" + tag + "}:a", "{" + tag + "}:b");
			join(two.other.tryAcquire(keys.get(1), "owner:2", LEASE));
			List<Attempt> refused = join(one.tryAcquireAll(keys, "owner:1", LEASE));
			assumeTrue(refused != null, "the store cannot take these keys in one step");
			assertThat(refused).as("SeveralKeysExtension.tryAcquireAll(one key held by another)")
				.noneMatch(Attempt::acquired);
			assertThat(join(two.other.isOwner(keys.get(0), "owner:1")))
				.as("SeveralKeysExtension.tryAcquireAll refused, yet took the free key")
				.isFalse();
			join(two.other.release(keys.get(1), "owner:2"));
			List<Attempt> granted = join(one.tryAcquireAll(keys, "owner:1", LEASE));
			assertThat(granted).as("SeveralKeysExtension.tryAcquireAll(free keys)")
				.hasSize(2)
				.allMatch(Attempt::acquired);
			keys.forEach((key) -> join(two.one.release(key, "owner:1")));
		}
	}

	/**
	 * {@link HandOverExtension}: {@code handOver} passes the owner's lock to the next
	 * token with a higher fencing token, and refuses a token that does not own the lock;
	 * with another client registered as waiting ({@link WakeOneExtension}), a hand-over
	 * naming the holder's client tells that another client waits, so that the holder's
	 * client yields to it.
	 */
	public void handOverPassesTheLockToTheNextTokenWithAHigherFence() {
		try (StorePair two = new StorePair(this.stores)) {
			HandOverExtension one = extension(two.one, HandOverExtension.class);
			String key = key("spi-hand-over");
			Attempt first = join(two.one.tryAcquire(key, "owner:1", LEASE));
			Attempt refused = join(one.handOver(key, "intruder:1", "next:1", LEASE));
			assertThat(refused).as("HandOverExtension.handOver(key, another token)").isNotNull();
			assertThat(refused.acquired()).as("HandOverExtension.handOver(key, another token) acquired").isFalse();
			Attempt handed = join(one.handOver(key, "owner:1", "next:1", LEASE));
			assumeTrue(handed != null, "the store did not hand over this time");
			assertThat(handed.acquired()).as("HandOverExtension.handOver(key, owner) acquired").isTrue();
			assertThat(handed.fencingToken()).as("HandOverExtension.handOver fencing token")
				.isGreaterThan(first.fencingToken());
			assertThat(join(two.other.isOwner(key, "next:1"))).as("LockStore.isOwner(key, next token) after hand-over")
				.isTrue();
			WakeOneExtension waiting = two.other.extension(WakeOneExtension.class);
			if (waiting != null) {
				assertThat(join(waiting.tryAcquire(key, "waiter:1", LEASE, "other-client", LEASE)).acquired())
					.as("WakeOneExtension.tryAcquire(held key)")
					.isFalse();
				HandOff handOff = join(one.handOver(key, "next:1", "next:2", LEASE, "holder-client"));
				assumeTrue(handOff != null, "the store did not hand over this time");
				assertThat(handOff.attempt().acquired()).as("HandOverExtension.handOver(key, owner, client) acquired")
					.isTrue();
				assertThat(handOff.othersWait())
					.as("HandOverExtension.handOver(key, owner, client) with another client waiting: othersWait")
					.isTrue();
				join(waiting.leave(key, "other-client"));
				join(two.one.release(key, "next:2"));
			}
			else {
				join(two.one.release(key, "next:1"));
			}
		}
	}

	/**
	 * {@link InspectionExtension}: {@code inspect} tells the owner and the last fencing
	 * token; {@code forceRelease} frees the key whoever holds it and names the owner.
	 */
	public void inspectTellsTheOwnerAndForceReleaseFreesTheKey() {
		try (StorePair two = new StorePair(this.stores)) {
			InspectionExtension other = extension(two.other, InspectionExtension.class);
			String key = key("spi-inspect");
			Attempt grant = join(two.one.tryAcquire(key, "owner:1", LEASE));
			KeyState state = join(other.inspect(key));
			assertThat(state.ownerToken()).as("InspectionExtension.inspect(held key) owner").isEqualTo("owner:1");
			assertThat(state.lastFencingToken()).as("InspectionExtension.inspect(held key) last fencing token")
				.isIn(0L, grant.fencingToken());
			assertThat(join(other.forceRelease(key))).as("InspectionExtension.forceRelease(held key)")
				.isEqualTo("owner:1");
			assertThat(join(other.inspect(key)).held()).as("InspectionExtension.inspect(key after force release)")
				.isFalse();
			assertThat(join(other.forceRelease(key))).as("InspectionExtension.forceRelease(free key)").isNull();
		}
	}

	/**
	 * {@link WakeOneExtension}: a client refused while waiting is registered, and a
	 * release wakes it through {@code onRelease(key, waiter, listener)}.
	 */
	public void aReleaseWakesARegisteredWaiter() {
		try (StorePair two = new StorePair(this.stores)) {
			WakeOneExtension other = extension(two.other, WakeOneExtension.class);
			String key = key("spi-wake-one");
			String waiter = "client-" + UUID.randomUUID();
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			AtomicInteger woken = new AtomicInteger();
			try (Subscription subscription = other.onRelease(key, waiter, woken::incrementAndGet)) {
				await().atMost(10, TimeUnit.SECONDS)
					.pollInterval(Duration.ofMillis(200))
					.alias("WakeOneExtension.onRelease(key, waiter) hears the release that wakes the registered waiter")
					.until(() -> {
						if (join(two.one.tryAcquire(key, "owner:1", LEASE)).acquired()) {
							assertThat(join(other.tryAcquire(key, "waiting:1", LEASE, waiter, Duration.ofSeconds(3)))
								.acquired()).as("WakeOneExtension.tryAcquire(held key)").isFalse();
							join(two.one.release(key, "owner:1"));
						}
						return woken.get() > 0;
					});
				join(other.leave(key, waiter));
			}
		}
	}

}
