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

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the shape of {@link LockScripts}: one KEYS order, named locals, only the
 * helpers each script uses, no timing figure written in Lua.
 *
 * @author distlock
 */
class LockScriptsTests {

	private static final Pattern FUNCTION = Pattern.compile("local function (\\w+)\\(");

	private static final Pattern KEYS_INDEX = Pattern.compile("KEYS\\[([^\\]]+)\\]");

	private static final String RELEASED_KEY_LOCAL = "local releasedKey, replayMillis = KEYS[9], ARGV[4]";

	@Test
	void everyScriptNamesTheKeysOfALockInTheOneOrderOfLockKeys() {
		LockKeys keys = LockKeys.of("lock:", "order");
		List<String> suffixes = keys.all().stream().map((key) -> key.substring(keys.lockKey().length())).toList();
		assertThat(suffixes).containsExactly("", ":fence", ":released", ":writer-waiting", ":waiters", ":queue",
				":alive", ":grants");
		assertThat(LockScripts.KEY_LOCALS).contains(
				"local lockKey, fenceKey, channel, writerWaitingKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]",
				"local waitersKey, queueKey, aliveKey, grantsKey = KEYS[5], KEYS[6], KEYS[7], KEYS[8]");
		for (LuaScript script : LockScripts.ALL) {
			assertThat(script.source()).as("%s starts with the protocol's literals", script)
				.startsWith(LuaHelpers.PROTOCOL_LOCALS);
			String source = script.source().substring(LuaHelpers.PROTOCOL_LOCALS.length());
			if (source.startsWith(LockScripts.KEY_LOCALS)) {
				// The release alone receives one key past the eight, named at the top
				String body = source.substring(LockScripts.KEY_LOCALS.length())
					.replace(RELEASED_KEY_LOCAL, (script == LockScripts.RELEASE) ? "" : RELEASED_KEY_LOCAL);
				assertThat(KEYS_INDEX.matcher(body).find()).as("%s reads KEYS only through the named locals", script)
					.isFalse();
			}
			else {
				assertThat(source).as("%s works on several locks", script).startsWith(LockScripts.KEYS_PER_LOCK);
				Matcher index = KEYS_INDEX.matcher(source);
				while (index.find()) {
					assertThat(index.group(1)).as("%s indexes KEYS per lock", script)
						.matches("base \\+ [1-8]|\\(i - 1\\) \\* keysPerLock \\+ [1-8]");
				}
			}
		}
	}

	@Test
	void everyScriptShipsOnlyTheHelpersItUses() {
		for (LuaScript script : LockScripts.ALL) {
			String source = script.source();
			Matcher function = FUNCTION.matcher(source);
			List<String> unused = new ArrayList<>();
			while (function.find()) {
				String name = function.group(1);
				if (source.split("\\b" + name + "\\(", -1).length - 1 < 2) {
					unused.add(name);
				}
			}
			assertThat(unused).as("helpers %s ships but never calls", script).isEmpty();
		}
	}

	@Test
	void theReadWriteTimingComesFromJavaThroughArgv() {
		assertThat(LockScripts.ALL)
			.allSatisfy((script) -> assertThat(script.source()).doesNotContain("20)").doesNotContain("2000"));
		assertThat(LockScripts.FAIR_ACQUIRE.source()).contains("deadBudget = ARGV[5], ARGV[6], tonumber(ARGV[7])");
		assertThat(List.of(LockScripts.RELEASE, LockScripts.LEAVE)).allSatisfy(
				(script) -> assertThat(script.source()).contains("deadBudget = ARGV[1], ARGV[2], tonumber(ARGV[3])"));
		assertThat(LockScripts.ACQUIRE.source()).contains("recheckMillis = ARGV[1], ARGV[2], ARGV[3], ARGV[4]");
		assertThat(LockScripts.RELEASE.source()).contains(RELEASED_KEY_LOCAL);
	}

	@Test
	void theOwnerCheckIsWrittenOnce() {
		assertThat(LockScripts.ALL)
			.allSatisfy((script) -> assertThat(script.source().replace(LuaHelpers.OWNERSHIP.source(), ""))
				.as("%s checks the owner only through ownership()", script)
				.doesNotContain("redis.call('get', lockKey) ==")
				.doesNotContain("redis.call('get', key) ==")
				.doesNotContain("redis.call('zscore', lockKey, token)"));
	}

	@Test
	void theReleaseTimeHandOffAndTheCohortHandOverHaveDifferentNames() {
		assertThat(LockScripts.RELEASE.source()).contains("handOff(publish, deadBudget)").doesNotContain("handover");
		assertThat(LockScripts.COHORT_HAND_OVER.source()).doesNotContain("handOff");
	}

}
