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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.distlock.store.LockStore.Renewal;
import dev.distlock.store.LockStore.RenewalOutcome;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wiring of a Cluster renewal: one script per hash slot, every script of a call sent
 * before the first reply comes back (so that Lettuce pipelines them on each node's
 * connection), never one after another. A recording executor stands in for Redis; the
 * Cluster itself is in {@code RedisClusterRenewalTests}.
 *
 * @author distlock
 */
class SlotRenewalTests {

	private final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());

	@Test
	void sendsOneScriptPerSlotAllBeforeAnyReply() {
		List<Renewal> renewals = IntStream.range(0, 2_000).mapToObj((i) -> new Renewal("k" + i, "t" + i)).toList();
		Set<Integer> slots = renewals.stream()
			.map((renewal) -> ClusterSlotHashUtil.calculateSlot(keys(renewal.key()).lockKey()))
			.collect(Collectors.toSet());
		CompletableFuture<List<RenewalOutcome>> outcome = new SlotRenewal(new RedisLockCommands(new Recording()),
				renewals, Duration.ofSeconds(30), true, SlotRenewalTests::keys)
			.run();
		assertThat(outcome).isNotDone();
		assertThat(this.sent).as("scripts in flight at once, none answered yet").hasSize(slots.size());
		assertThat(this.sent).allSatisfy((
				script) -> assertThat(script.keys().stream().map(ClusterSlotHashUtil::calculateSlot).distinct().count())
					.isOne());
		assertThat(this.sent.stream().mapToInt((script) -> script.keys().size()).sum())
			.as("the lock and fence key of each lease")
			.isEqualTo(2 * renewals.size());
		this.sent.forEach((script) -> script.reply()
			.complete(
					IntStream.range(0, script.keys().size() / 2).mapToObj((lock) -> 1L).collect(Collectors.toList())));
		assertThat(outcome.join()).hasSize(renewals.size()).containsOnly(RenewalOutcome.RENEWED);
	}

	@Test
	void sendsOneScriptOffACluster() {
		List<Renewal> renewals = IntStream.range(0, 500).mapToObj((i) -> new Renewal("k" + i, "t" + i)).toList();
		new SlotRenewal(new RedisLockCommands(new Recording()), renewals, Duration.ofSeconds(30), false,
				SlotRenewalTests::keys)
			.run();
		assertThat(this.sent).hasSize(1);
		assertThat(this.sent.get(0).keys()).hasSize(2 * renewals.size());
	}

	private static LockKeys keys(String key) {
		return LockKeys.of(RedisLockStore.DEFAULT_KEY_PREFIX, key);
	}

	private record Sent(List<String> keys, CompletableFuture<Object> reply) {
	}

	/**
	 * Records each script and answers it only when the test says so.
	 */
	private final class Recording implements ScriptExecutor {

		@Override
		public CompletableFuture<Object> run(LuaScript script, List<String> keys, List<String> args) {
			assertThat(script).isSameAs(LockScripts.RENEW);
			CompletableFuture<Object> reply = new CompletableFuture<>();
			SlotRenewalTests.this.sent.add(new Sent(keys, reply));
			return reply;
		}

		@Override
		public Duration commandTimeout() {
			return Duration.ofSeconds(1);
		}

		@Override
		public void close() {
		}

	}

}
