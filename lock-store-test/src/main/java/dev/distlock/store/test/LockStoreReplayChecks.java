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
import java.util.function.Supplier;

import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.HandOverExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SeveralKeysExtension;
import dev.distlock.store.WakeOneExtension;

import org.springframework.util.Assert;

import static dev.distlock.store.test.StorePair.extension;
import static dev.distlock.store.test.StorePair.join;
import static dev.distlock.store.test.StorePair.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The replay rule of the store SPI, one check per operation the client may send again: a
 * request sent twice (as a client re-sends a request whose reply was lost) answers as the
 * first did. A failure names the operation and its replay ({@code LockStore.release
 * replayed}...). {@code tryAcquire}'s own replay check is
 * {@link LockStoreSpiChecks#tryAcquireAnswersAReplayWithTheSameGrant()}.
 * {@link dev.distlock.store.InspectionExtension}'s operations are an operator's, which
 * the client never sends again: the rule does not cover them.
 * <p>
 * Each check makes the stores it needs from the supplier, two per check as two
 * application instances are, and closes them.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockStoreReplayChecks {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration REPLY = Duration.ofSeconds(30);

	private final Supplier<LockStore> stores;

	/**
	 * Create the checks.
	 * @param stores makes a new store on the backend under test at each call
	 */
	public LockStoreReplayChecks(Supplier<LockStore> stores) {
		Assert.notNull(stores, "'stores' must not be null");
		this.stores = stores;
	}

	/**
	 * {@code release} answers a replay of a release that freed the key as the first did,
	 * and frees nothing the replay finds.
	 */
	public void releaseAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("replay-release");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			boolean first = join(two.one.release(key, "owner:1"));
			assertThat(join(two.one.release(key, "owner:1"))).as("LockStore.release replayed").isEqualTo(first);
		}
	}

	/**
	 * {@code expireAfter} answers a replay as the first did.
	 */
	public void expireAfterAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("replay-expire-after");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			boolean first = join(two.one.expireAfter(key, "owner:1", Duration.ofSeconds(10)));
			assertThat(join(two.one.expireAfter(key, "owner:1", Duration.ofSeconds(10))))
				.as("LockStore.expireAfter replayed")
				.isEqualTo(first);
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@code renew} answers a replay of a batch with the same outcomes.
	 */
	public void renewAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			String owned = key("replay-renew-owned");
			String gone = key("replay-renew-gone");
			join(two.one.tryAcquire(owned, "owner:1", LEASE));
			List<Renewal> batch = List.of(new Renewal(owned, "owner:1"), new Renewal(gone, "owner:1"));
			List<RenewalOutcome> first = join(two.one.renew(batch, LEASE));
			assertThat(join(two.one.renew(batch, LEASE))).as("LockStore.renew replayed").isEqualTo(first);
			join(two.one.release(owned, "owner:1"));
		}
	}

	/**
	 * {@code isOwner} answers a replay as the first did.
	 */
	public void isOwnerAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			String key = key("replay-is-owner");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			boolean first = join(two.other.isOwner(key, "owner:1"));
			assertThat(join(two.other.isOwner(key, "owner:1"))).as("LockStore.isOwner replayed").isEqualTo(first);
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@link ReadLockExtension}: {@code tryAcquireRead} answers a replay with the same
	 * grant, and the read grants' {@code release} answers a replay as the first did.
	 */
	public void readLockRequestsAnswerAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			ReadLockExtension one = extension(two.one, ReadLockExtension.class);
			String key = key("replay-read");
			Attempt first = join(one.tryAcquireRead(key, "reader:1", LEASE));
			assertThat(join(one.tryAcquireRead(key, "reader:1", LEASE))).as("ReadLockExtension.tryAcquireRead replayed")
				.isEqualTo(first);
			boolean released = join(one.readGrants().release(key, "reader:1"));
			assertThat(join(one.readGrants().release(key, "reader:1")))
				.as("ReadLockExtension.readGrants().release replayed")
				.isEqualTo(released);
		}
	}

	/**
	 * {@link FairQueueExtension}: {@code tryAcquireFair} answers a replay of a grant with
	 * the same grant, and {@code leaveFairQueue} completes a replay as the first.
	 */
	public void fairRequestsAnswerAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			FairQueueExtension one = extension(two.one, FairQueueExtension.class);
			String key = key("replay-fair");
			Attempt first = join(one.tryAcquireFair(key, "owner:1", LEASE, null));
			assertThat(join(one.tryAcquireFair(key, "owner:1", LEASE, null)))
				.as("FairQueueExtension.tryAcquireFair replayed")
				.isEqualTo(first);
			FairQueueExtension other = extension(two.other, FairQueueExtension.class);
			join(other.tryAcquireFair(key, "waiter:1", LEASE, Duration.ofSeconds(5)));
			join(other.leaveFairQueue(key, "waiter:1"));
			assertThat(other.leaveFairQueue(key, "waiter:1").toCompletableFuture())
				.as("FairQueueExtension.leaveFairQueue replayed")
				.succeedsWithin(REPLY);
			assertThat(join(two.one.release(key, "owner:1")))
				.as("LockStore.release after FairQueueExtension.leaveFairQueue replayed")
				.isTrue();
		}
	}

	/**
	 * {@link WakeOneExtension}: its {@code tryAcquire} answers a replay of a grant with
	 * the same grant, and {@code leave} completes a replay as the first.
	 */
	public void wakeOneRequestsAnswerAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			WakeOneExtension one = extension(two.one, WakeOneExtension.class);
			String key = key("replay-wake-one");
			String waiter = "client-" + UUID.randomUUID();
			Attempt first = join(one.tryAcquire(key, "owner:1", LEASE, waiter, Duration.ofSeconds(3)));
			assertThat(join(one.tryAcquire(key, "owner:1", LEASE, waiter, Duration.ofSeconds(3))))
				.as("WakeOneExtension.tryAcquire replayed")
				.isEqualTo(first);
			join(one.leave(key, waiter));
			assertThat(one.leave(key, waiter).toCompletableFuture()).as("WakeOneExtension.leave replayed")
				.succeedsWithin(REPLY);
			join(two.one.release(key, "owner:1"));
		}
	}

	/**
	 * {@link HandOverExtension}: {@code handOver} answers a replay of a hand-over with
	 * the same grant.
	 */
	public void handOverAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			HandOverExtension one = extension(two.one, HandOverExtension.class);
			String key = key("replay-hand-over");
			join(two.one.tryAcquire(key, "owner:1", LEASE));
			Attempt first = join(one.handOver(key, "owner:1", "next:1", LEASE));
			assumeTrue(first != null, "the store did not hand over this time");
			assertThat(join(one.handOver(key, "owner:1", "next:1", LEASE))).as("HandOverExtension.handOver replayed")
				.isEqualTo(first);
			join(two.one.release(key, "next:1"));
		}
	}

	/**
	 * {@link SeveralKeysExtension}: {@code tryAcquireAll} answers a replay of a grant
	 * with the same grants.
	 */
	public void tryAcquireAllAnswersAReplayAsTheFirstDid() {
		try (StorePair two = new StorePair(this.stores)) {
			SeveralKeysExtension one = extension(two.one, SeveralKeysExtension.class);
			String tag = UUID.randomUUID().toString();
			List<String> keys = List.of("{" + tag + "}:a", "{" + tag + "}:b");
			List<Attempt> first = join(one.tryAcquireAll(keys, "owner:1", LEASE));
			assumeTrue(first != null, "the store cannot take these keys in one step");
			assertThat(join(one.tryAcquireAll(keys, "owner:1", LEASE)))
				.as("SeveralKeysExtension.tryAcquireAll replayed")
				.isEqualTo(first);
			keys.forEach((key) -> join(two.one.release(key, "owner:1")));
		}
	}

}
