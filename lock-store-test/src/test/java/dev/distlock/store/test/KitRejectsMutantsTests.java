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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.HeldLockOperations;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import dev.distlock.store.ReadLockExtension;
import dev.distlock.store.SessionLeaseExtension;
import dev.distlock.memory.InMemoryLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedMethod;

/**
 * The kit rejects a store that breaks one duty of an extension, or answers one replayed
 * request otherwise than the first, by the name of the check at fault: one mutant store
 * per duty and per replayed operation, each a {@link ForwardingLockStore} over one
 * in-memory store that breaks exactly that; and the unbroken store passes every check.
 *
 * @author distlock
 */
class KitRejectsMutantsTests {

	/**
	 * The one in-memory backend every store of a run wraps.
	 */
	static final InMemoryLockStore backend = new InMemoryLockStore();

	/**
	 * How the run's stores wrap the backend.
	 */
	static Function<LockStore, LockStore> mutant = ForwardingLockStore::new;

	/**
	 * The requests the run's mutant has seen, for the mutants that answer a replay
	 * otherwise.
	 */
	static final Set<List<Object>> seen = new HashSet<>();

	@AfterEach
	void unbreak() {
		mutant = ForwardingLockStore::new;
		seen.clear();
	}

	@Test
	void passEveryDutyAndReplayCheckOnTheUnbrokenStore() {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectNestedClass(List.of(MutantSuite.class), LockStoreContractTests.ExtensionDuties.class),
					selectNestedClass(List.of(MutantSuite.class), LockStoreContractTests.StoreReplay.class))
			.execute();
		results.testEvents().assertStatistics((stats) -> stats.failed(0).succeeded(16));
	}

	// The duties of each extension

	@Test
	void rejectReadLocksTheRequiredTryAcquireDoesNotSee() {
		InMemoryLockStore readBackend = new InMemoryLockStore();
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
				return readBackend.tryAcquireRead(key, token, lease);
			}

			@Override
			public HeldLockOperations readGrants() {
				return readBackend.readGrants();
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "readLocksMakeTryAcquireRefuseAKeyReadersHold",
				"ReadLockExtension duty: tryAcquire refuses a key readers hold");
	}

	@Test
	void rejectReadersLetInPastAWaitingWriter() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
				// Refuses a key readers hold without asking the store: no writer-waiting
				// mark
				return delegateExtension(InspectionExtension.class).inspect(key).thenCompose((state) -> {
					String holder = state.ownerToken();
					return (holder != null) ? readGrants().isOwner(key, holder)
							: CompletableFuture.completedFuture(false);
				})
					.thenCompose((read) -> read ? CompletableFuture.completedFuture(Attempt.busy(null))
							: super.tryAcquire(key, token, lease));
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "readLocksMakeARefusedWriterKeepNewReadersOut",
				"ReadLockExtension duty: a writer refused again keeps new readers out");
	}

	@Test
	void rejectAReleaseThatFreesTheKeyOverTheFairQueuesHead() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> release(String key, String token) {
				// Frees the key without handing it to the queue's head
				return isOwner(key, token).thenCompose((owned) -> owned
						? delegateExtension(InspectionExtension.class).forceRelease(key).thenApply((owner) -> true)
						: CompletableFuture.completedFuture(false));
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class,
				"fairQueueMakesReleaseGrantTheLockToTheQueueHead",
				"FairQueueExtension duty: release grants the lock to the queue's head");
	}

	@Test
	void rejectFairWakeUpsThatDropTheirGrant() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
				return super.onFairGrant(key, token, (grant) -> listener.accept(null));
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "fairGrantWakeUpsMakeReleaseCarryTheGrant",
				"FairGrantWakeUpExtension duty: release carries the grant");
	}

	@Test
	void rejectFairRefusalsThatHideTheStoreClock() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
					@Nullable Duration grantTimeout) {
				return super.tryAcquireFairClocked(key, token, lease, grantTimeout)
					.thenApply((clocked) -> ClockedAttempt.unclocked(clocked.attempt()));
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "fairGrantWakeUpsTellTheStoreClock",
				"FairGrantWakeUpExtension duty: a refusal tells the store's clock");
	}

	@Test
	void rejectAReleaseThatWakesEveryWaitingClient() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public Subscription onRelease(String key, String waiter, Runnable listener) {
				return delegate().onRelease(key, listener);
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class,
				"wakeOneMakesReleaseWakeTheRegisteredWaiterAlone",
				"WakeOneExtension duty: release wakes one registered waiter alone");
	}

	@Test
	void rejectSessionLocksThatEndWithTheirLease() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
				return (type == SessionLeaseExtension.class) ? type.cast(this) : super.extension(type);
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "sessionLeasesKeepALockPastItsLease",
				"SessionLeaseExtension duty: a lock lives as long as the session");
	}

	@Test
	void rejectFencingTokensWithoutRoomForHandOversWithoutARequest() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
				return delegate().tryAcquire(key, token, lease)
					.thenApply((attempt) -> attempt.acquired() ? Attempt.granted(attempt.fencingToken() + 1) : attempt);
			}

		};
		assertRejectedBy(LockStoreContractTests.ExtensionDuties.class, "localHandOversFindRoomBetweenTwoGrants",
				"LocalHandOverExtension duty: the fencing token of tryAcquire");
	}

	// The replay rule, per operation

	@Test
	void rejectATryAcquireThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
				return replayed("tryAcquire", key, token) ? busy() : super.tryAcquire(key, token, lease);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreSpi.class, "tryAcquireAnswersAReplayWithTheSameGrant",
				"LockStore.tryAcquire replayed by the owner");
	}

	@Test
	void rejectAReleaseThatForgetsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> release(String key, String token) {
				return replayed("release", key, token) ? CompletableFuture.completedFuture(false)
						: super.release(key, token);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "releaseAnswersAReplayAsTheFirstDid",
				"LockStore.release replayed");
	}

	@Test
	void rejectAnExpireAfterThatForgetsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
				return replayed("expireAfter", key, token) ? CompletableFuture.completedFuture(false)
						: super.expireAfter(key, token, remaining);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "expireAfterAnswersAReplayAsTheFirstDid",
				"LockStore.expireAfter replayed");
	}

	@Test
	void rejectARenewalThatForgetsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
				return replayed("renew", renewals)
						? CompletableFuture
							.completedFuture(renewals.stream().map((renewal) -> RenewalOutcome.LOST).toList())
						: super.renew(renewals, lease);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "renewAnswersAReplayAsTheFirstDid",
				"LockStore.renew replayed");
	}

	@Test
	void rejectAnOwnerCheckThatChangesItsAnswerOnAReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Boolean> isOwner(String key, String token) {
				boolean replay = replayed("isOwner", key, token);
				return super.isOwner(key, token).thenApply((owner) -> replay != owner);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "isOwnerAnswersAReplayAsTheFirstDid",
				"LockStore.isOwner replayed");
	}

	@Test
	void rejectAReadLockThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
				return replayed("tryAcquireRead", key, token) ? busy() : super.tryAcquireRead(key, token, lease);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "readLockRequestsAnswerAReplayAsTheFirstDid",
				"ReadLockExtension.tryAcquireRead replayed");
	}

	@Test
	void rejectAReadReleaseThatForgetsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			private final HeldLockOperations reads = delegateExtension(ReadLockExtension.class).readGrants();

			private final HeldLockOperations readGrants = new HeldLockOperations() {

				@Override
				public CompletionStage<Boolean> release(String key, String token) {
					return replayed("releaseRead", key, token) ? CompletableFuture.completedFuture(false)
							: reads.release(key, token);
				}

				@Override
				public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
					return reads.expireAfter(key, token, remaining);
				}

				@Override
				public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
					return reads.renew(renewals, lease);
				}

				@Override
				public CompletionStage<Boolean> isOwner(String key, String token) {
					return reads.isOwner(key, token);
				}

			};

			@Override
			public HeldLockOperations readGrants() {
				return this.readGrants;
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "readLockRequestsAnswerAReplayAsTheFirstDid",
				"ReadLockExtension.readGrants().release replayed");
	}

	@Test
	void rejectAFairAttemptThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
					@Nullable Duration grantTimeout) {
				return replayed("tryAcquireFair", key, token) ? busy()
						: super.tryAcquireFair(key, token, lease, grantTimeout);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "fairRequestsAnswerAReplayAsTheFirstDid",
				"FairQueueExtension.tryAcquireFair replayed");
	}

	@Test
	void rejectLeavingTheFairQueueThatFailsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Void> leaveFairQueue(String key, String token) {
				return replayed("leaveFairQueue", key, token)
						? CompletableFuture.failedFuture(new IllegalStateException("not in the queue"))
						: super.leaveFairQueue(key, token);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "fairRequestsAnswerAReplayAsTheFirstDid",
				"FairQueueExtension.leaveFairQueue replayed");
	}

	@Test
	void rejectAWakeOneAttemptThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
					Duration waiterTtl) {
				return replayed("tryAcquireWaiting", key, token) ? busy()
						: super.tryAcquire(key, token, lease, waiter, waiterTtl);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "wakeOneRequestsAnswerAReplayAsTheFirstDid",
				"WakeOneExtension.tryAcquire replayed");
	}

	@Test
	void rejectLeavingTheWaitersThatFailsItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<Void> leave(String key, String waiter) {
				return replayed("leave", key, waiter)
						? CompletableFuture.failedFuture(new IllegalStateException("not registered"))
						: super.leave(key, waiter);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "wakeOneRequestsAnswerAReplayAsTheFirstDid",
				"WakeOneExtension.leave replayed");
	}

	@Test
	void rejectAHandOverThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken,
					Duration lease) {
				return replayed("handOver", key, token, nextToken)
						? CompletableFuture.completedFuture(Attempt.busy(null))
						: super.handOver(key, token, nextToken, lease);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "handOverAnswersAReplayAsTheFirstDid",
				"HandOverExtension.handOver replayed");
	}

	@Test
	void rejectTakingSeveralKeysThatRefusesItsReplay() {
		mutant = (store) -> new ForwardingLockStore(store) {

			@Override
			public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token,
					Duration lease) {
				return replayed("tryAcquireAll", keys, token)
						? CompletableFuture.completedFuture(keys.stream().map((key) -> Attempt.busy(null)).toList())
						: super.tryAcquireAll(keys, token, lease);
			}

		};
		assertRejectedBy(LockStoreContractTests.StoreReplay.class, "tryAcquireAllAnswersAReplayAsTheFirstDid",
				"SeveralKeysExtension.tryAcquireAll replayed");
	}

	/**
	 * Return whether the mutant has seen this request before, remembering it.
	 */
	static boolean replayed(Object... request) {
		return !seen.add(List.of(request));
	}

	static CompletionStage<LockStore.Attempt> busy() {
		return CompletableFuture.completedFuture(LockStore.Attempt.busy(null));
	}

	/**
	 * Run one check of the kit on the mutant, and assert that it failed, naming the duty
	 * or operation at fault.
	 */
	private static void assertRejectedBy(Class<?> group, String check, String name) {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectNestedMethod(List.of(MutantSuite.class), group, check))
			.execute();
		results.testEvents().assertStatistics((stats) -> stats.started(1).failed(1));
		String failure = results.testEvents()
			.failed()
			.stream()
			.map((event) -> event.getPayload(TestExecutionResult.class)
				.flatMap(TestExecutionResult::getThrowable)
				.map(String::valueOf)
				.orElse(""))
			.findFirst()
			.orElseThrow();
		assertThat(failure).as("the failure of %s", check).contains(name);
	}

	/**
	 * The contract kit on the run's mutant of the in-memory backend; only its SPI-level
	 * groups run here.
	 */
	static class MutantSuite extends LockStoreContractTests {

		@Override
		protected LockStore newStore() {
			return mutant.apply(backend);
		}

		@Override
		protected boolean isLocked(String key) {
			return backend.inspect(key).toCompletableFuture().join().held();
		}

		@Override
		protected void takeOver(String key) {
			throw new UnsupportedOperationException("only the SPI-level groups run on a mutant");
		}

		@Override
		protected void expire(String key) {
			throw new UnsupportedOperationException("only the SPI-level groups run on a mutant");
		}

	}

}
