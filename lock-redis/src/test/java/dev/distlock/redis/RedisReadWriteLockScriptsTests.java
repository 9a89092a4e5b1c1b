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

import java.time.Duration;
import java.util.List;

import dev.distlock.store.ReadWriteTiming;
import dev.distlock.store.support.Stages;
import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.DataType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis scripts on a key held by readers (a sorted set) or by a writer (a string):
 * every owner-checked script answers "not owner" for a token of the other kind instead of
 * failing with {@code WRONGTYPE}, readers whose lease ended are dropped, and a writer
 * refused by readers keeps new readers out.
 *
 * @author distlock
 */
class RedisReadWriteLockScriptsTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofSeconds(10);

	private final RedisLockStore store = newStore();

	@Test
	void exclusiveScriptsOnAReadHeldKeyAnswerNotOwnerInsteadOfFailing() {
		String key = uniqueKey("read-held");
		assertThat(Stages.join(this.store.tryAcquireRead(key, "reader", LEASE))).isEqualTo(Attempt.granted(0));
		assertThat(redis.type(lockKey(key))).isEqualTo(DataType.ZSET);
		assertThat(Stages.join(this.store.release(key, "writer"))).isFalse();
		assertThat(Stages.join(this.store.isOwner(key, "writer"))).isFalse();
		assertThat(Stages.join(this.store.expireAfter(key, "writer", LEASE))).isFalse();
		assertThat(Stages.join(this.store.renew(List.of(new Renewal(key, "writer")), LEASE)))
			.containsExactly(RenewalOutcome.LOST);
		Attempt refused = Stages.join(this.store.tryAcquire(key, "writer", LEASE));
		assertThat(refused.acquired()).isFalse();
		assertThat(refused.holderLeaseRemaining()).isPositive().isLessThanOrEqualTo(LEASE);
		assertThat(Stages.join(this.store.tryAcquireAll(List.of(key), "writer", LEASE))).singleElement()
			.satisfies((attempt) -> assertThat(attempt.acquired()).isFalse());
		assertThat(Stages.join(this.store.inspect(key)).ownerToken()).isEqualTo("reader");
		assertThat(Stages.join(this.store.isOwner(key, "reader"))).isTrue();
		assertThat(Stages.join(this.store.renew(List.of(new Renewal(key, "reader")), LEASE)))
			.containsExactly(RenewalOutcome.RENEWED);
		assertThat(Stages.join(this.store.expireAfter(key, "reader", LEASE))).isTrue();
		assertThat(Stages.join(this.store.release(key, "reader"))).isTrue();
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

	@Test
	void readScriptsOnAWriteHeldKeyAnswerNotOwner() {
		String key = uniqueKey("write-held");
		assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).acquired()).isTrue();
		Attempt refused = Stages.join(this.store.tryAcquireRead(key, "reader", LEASE));
		assertThat(refused.acquired()).isFalse();
		assertThat(refused.holderLeaseRemaining()).isPositive().isLessThanOrEqualTo(LEASE);
		assertThat(Stages.join(this.store.release(key, "reader"))).isFalse();
		assertThat(Stages.join(this.store.isOwner(key, "reader"))).isFalse();
		assertThat(Stages.join(this.store.expireAfter(key, "reader", LEASE))).isFalse();
		assertThat(Stages.join(this.store.renew(List.of(new Renewal(key, "reader")), LEASE)))
			.containsExactly(RenewalOutcome.LOST);
		assertThat(Stages.join(this.store.isOwner(key, "writer"))).isTrue();
		assertThat(Stages.join(this.store.release(key, "writer"))).isTrue();
	}

	@Test
	void aWriterRefusedTwiceByReadersKeepsNewReadersOutUntilItGetsIn() {
		String key = uniqueKey("writer-waiting");
		assertThat(Stages.join(this.store.tryAcquireRead(key, "reader-1", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).holderLeaseRemaining())
			.as("a writer refused once is told to try again soon")
			.isLessThanOrEqualTo(ReadWriteTiming.PENDING_WRITER_RECHECK);
		assertThat(Stages.join(this.store.tryAcquire(key, "one-try", LEASE)).acquired()).isFalse();
		assertThat(Stages.join(this.store.tryAcquireRead(key, "reader-2", LEASE)).acquired())
			.as("a writer refused once may be trying once: readers still get in")
			.isTrue();
		assertThat(Stages.join(this.store.release(key, "reader-2"))).isTrue();
		assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).acquired()).isFalse();
		Attempt refused = Stages.join(this.store.tryAcquireRead(key, "reader-2", LEASE));
		assertThat(refused.acquired()).isFalse();
		assertThat(refused.holderLeaseRemaining()).isPositive().isLessThanOrEqualTo(ReadWriteTiming.WRITER_WAITING);
		assertThat(Stages.join(this.store.release(key, "reader-1"))).isTrue();
		assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).acquired()).isTrue();
		assertThat(redis.hasKey(lockKey(key) + ":writer-waiting"))
			.as("a grant on the fast path (SET NX) leaves the writer's mark while the writer holds the key")
			.isTrue();
		assertThat(Stages.join(this.store.release(key, "writer"))).isTrue();
		assertThat(redis.hasKey(lockKey(key) + ":writer-waiting")).as("the release cleared the writer's mark")
			.isFalse();
		assertThat(Stages.join(this.store.tryAcquireRead(key, "reader-2", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.release(key, "reader-2"))).isTrue();
	}

	@Test
	void aWriterThatTookTheKeyOnTheFastPathClearsItsMarkWhenItHandsOverOrShortensItsLease() {
		for (String end : List.of("hand-over", "expire-after")) {
			String key = uniqueKey("mark-" + end);
			String mark = lockKey(key) + ":writer-waiting";
			assertThat(Stages.join(this.store.tryAcquireRead(key, "reader", LEASE)).acquired()).isTrue();
			assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).acquired()).isFalse();
			assertThat(Stages.join(this.store.release(key, "reader"))).isTrue();
			assertThat(Stages.join(this.store.tryAcquire(key, "writer", LEASE)).acquired()).isTrue();
			assertThat(redis.hasKey(mark)).as("the mark the writer's refusal left").isTrue();
			String holder = "writer";
			if (end.equals("hand-over")) {
				Attempt handedOver = Stages.join(this.store.handOver(key, "writer", "next", LEASE));
				assertThat(handedOver).isNotNull().extracting(Attempt::acquired).isEqualTo(true);
				holder = "next";
			}
			else {
				assertThat(Stages.join(this.store.expireAfter(key, "writer", LEASE))).isTrue();
			}
			assertThat(redis.hasKey(mark)).as("the mark after the " + end).isFalse();
			assertThat(Stages.join(this.store.release(key, holder))).isTrue();
		}
	}

	@Test
	void readersWhoseLeaseEndedAreDroppedAndTheKeyLivesAsLongAsTheLatestReader() throws Exception {
		String key = uniqueKey("reader-expiry");
		assertThat(Stages.join(this.store.tryAcquireRead(key, "short", Duration.ofMillis(200))).acquired()).isTrue();
		assertThat(Stages.join(this.store.tryAcquireRead(key, "long", LEASE)).acquired()).isTrue();
		assertThat(redis.getExpire(lockKey(key))).isGreaterThan(5);
		Thread.sleep(300);
		assertThat(Stages.join(this.store.isOwner(key, "short"))).isFalse();
		assertThat(Stages.join(this.store.renew(List.of(new Renewal(key, "short"), new Renewal(key, "long")), LEASE)))
			.containsExactly(RenewalOutcome.LOST, RenewalOutcome.RENEWED);
		assertThat(redis.opsForZSet().range(lockKey(key), 0, -1)).containsExactly("long");
		assertThat(Stages.join(this.store.release(key, "short"))).isFalse();
		assertThat(Stages.join(this.store.release(key, "long"))).isTrue();
		assertThat(redis.hasKey(lockKey(key))).isFalse();
	}

}
