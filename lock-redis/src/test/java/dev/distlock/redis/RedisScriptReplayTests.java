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
import java.util.concurrent.TimeUnit;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.LockStore.KeyState;
import dev.distlock.store.support.Stages;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every script answers a replay (the same script sent twice with the same arguments, as a
 * client does when it re-sends a command after reconnecting) as it answered the first
 * run, and does its work once.
 *
 * @author distlock
 */
class RedisScriptReplayTests extends RedisStoreTestSupport {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private final RedisLockStore store = newStore();

	@Test
	void aReplayedAcquireAnswersGrantedWithTheSameFencingToken() {
		String key = uniqueKey("replayed-acquire");
		Attempt first = Stages.join(this.store.tryAcquire(key, "owner", LEASE));
		Attempt replay = Stages.join(this.store.tryAcquire(key, "owner", LEASE));
		assertThat(first.acquired()).isTrue();
		assertThat(replay.acquired()).isTrue();
		assertThat(replay.fencingToken()).isEqualTo(first.fencingToken());
		assertThat(Stages.join(this.store.tryAcquire(key, "other", LEASE)).acquired()).isFalse();
		KeyState state = Stages.join(this.store.inspect(key));
		assertThat(state.ownerToken()).isEqualTo("owner");
		assertThat(state.lastFencingToken()).as("no second fencing token issued").isEqualTo(first.fencingToken());
	}

	@Test
	void aReplayedAcquireOfSeveralKeysAnswersGrantedWithTheSameFencingTokens() {
		String tag = uniqueKey("several");
		List<String> keys = List.of("{" + tag + "}:a", "{" + tag + "}:b");
		List<Attempt> first = Stages.join(this.store.tryAcquireAll(keys, "owner", LEASE));
		List<Attempt> replay = Stages.join(this.store.tryAcquireAll(keys, "owner", LEASE));
		assertThat(first).isNotNull().allSatisfy((attempt) -> assertThat(attempt.acquired()).isTrue());
		assertThat(replay).isNotNull().allSatisfy((attempt) -> assertThat(attempt.acquired()).isTrue());
		assertThat(replay.stream().map(Attempt::fencingToken))
			.containsExactlyElementsOf(first.stream().map(Attempt::fencingToken).toList());
	}

	@Test
	void aReplayedReleaseAnswersReleasedEvenAfterAnotherCallerTookTheLock() {
		String key = uniqueKey("replayed-release");
		assertThat(Stages.join(this.store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.release(key, "owner"))).isTrue();
		assertThat(Stages.join(this.store.release(key, "owner"))).as("the replay").isTrue();
		assertThat(Stages.join(this.store.tryAcquire(key, "next", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.release(key, "owner"))).as("a replay after the next grant").isTrue();
		assertThat(Stages.join(this.store.inspect(key)).ownerToken()).as("the next holder keeps the lock")
			.isEqualTo("next");
		assertThat(Stages.join(this.store.release(key, "never-held"))).as("a token that never released").isFalse();
	}

	@Test
	void theReleasedByMarkerLivesOneCommandTimeout() {
		String key = uniqueKey("marker");
		assertThat(Stages.join(this.store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
		assertThat(Stages.join(this.store.release(key, "owner"))).isTrue();
		Long ttl = redis.getExpire(LockKeys.of(this.store.keyPrefix(), key).releasedKey("owner"),
				TimeUnit.MILLISECONDS);
		assertThat(ttl).isPositive().isLessThanOrEqualTo(COMMAND_TIMEOUT.toMillis());
	}

	@Test
	void aReplayedHandOverKeepsTheNextTokenAsHolderWithTheSameFencingToken() {
		String key = uniqueKey("replayed-hand-over");
		assertThat(Stages.join(this.store.tryAcquire(key, "owner", LEASE)).acquired()).isTrue();
		Attempt first = Stages.join(this.store.handOver(key, "owner", "next", LEASE));
		Attempt replay = Stages.join(this.store.handOver(key, "owner", "next", LEASE));
		assertThat(first).isNotNull();
		assertThat(first.acquired()).isTrue();
		assertThat(replay).isNotNull();
		assertThat(replay.acquired()).isTrue();
		assertThat(replay.fencingToken()).isEqualTo(first.fencingToken());
		assertThat(Stages.join(this.store.inspect(key)).ownerToken()).isEqualTo("next");
		assertThat(Stages.join(this.store.handOver(key, "stranger", "other", LEASE)).acquired())
			.as("a token that never held the lock")
			.isFalse();
	}

}
