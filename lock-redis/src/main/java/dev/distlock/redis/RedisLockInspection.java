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
import java.util.concurrent.CompletableFuture;

import dev.distlock.store.LockStore.KeyState;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The operator's view of Redis locks, for {@link RedisLockStore#inspect(String)} and
 * {@link RedisLockStore#forceRelease(String)}: scripts ({@link LockScripts#INSPECT},
 * {@link LockScripts#FORCE_RELEASE}), so that they run on the master even when the
 * application reads from replicas.
 *
 * @author distlock
 * @since 0.1.0
 */
final class RedisLockInspection {

	private final RedisLockCommands commands;

	RedisLockInspection(RedisLockCommands commands) {
		this.commands = commands;
	}

	CompletableFuture<KeyState> inspect(LockKeys keys) {
		return this.commands.run(keys, "inspect", LockScripts.INSPECT, List.of(), (reply) -> {
			List<?> answer = (List<?>) reply;
			if (answer.size() < 3) {
				throw new IllegalStateException("Redis returned " + answer + " to " + LockScripts.INSPECT);
			}
			String owner = StringUtils.hasLength((String) answer.get(0)) ? (String) answer.get(0) : null;
			long pttl = Long.parseLong((String) answer.get(1));
			Duration ttl = (owner != null && pttl >= 0) ? Duration.ofMillis(pttl) : null;
			long fence = StringUtils.hasLength((String) answer.get(2)) ? Long.parseLong((String) answer.get(2)) : 0;
			return new KeyState(owner, ttl, fence);
		});
	}

	CompletableFuture<@Nullable String> forceRelease(LockKeys keys, String publishCommand) {
		return this.commands.<@Nullable String>run(keys, "force-release", LockScripts.FORCE_RELEASE,
				List.of(publishCommand), (reply) -> StringUtils.hasLength((String) reply) ? (String) reply : null);
	}

}
