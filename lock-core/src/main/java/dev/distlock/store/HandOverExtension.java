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
package dev.distlock.store;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import dev.distlock.LockBackendException;
import dev.distlock.store.LockStore.Attempt;
import org.jspecify.annotations.Nullable;

/**
 * Lock cohorting: a holder passes its lock straight to its own client's next waiting
 * caller, without making the key free in between. Without this extension the holder
 * releases and the next caller asks the store like anyone else.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface HandOverExtension extends LockStoreExtension {

	/**
	 * Give the lock {@code token} holds to {@code nextToken} in one owner-checked step,
	 * with a new fencing token strictly greater than every earlier grant and a lease of
	 * {@code lease}, without making it free in between and without waking anyone. A
	 * replay of the same hand-over answers as the first did.
	 * @param key the lock key
	 * @param token the owner token of the holder
	 * @param nextToken the owner token of the next holder, unique per acquisition
	 * @param lease the next holder's lease
	 * @return the grant to {@code nextToken}; a refusal when {@code token} no longer owns
	 * the lock (which is then left alone); or {@code null} when the store does not hand
	 * over this time (fair waiters are queued for the key, say), and the holder releases
	 * instead; failed with {@link LockBackendException} if the backend failed (the lock
	 * may be held by either token)
	 */
	CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease);

	/**
	 * Hand the lock over as {@link #handOver(String, String, String, Duration)} does, and
	 * tell whether a client other than {@code client} waits for the key, so that the
	 * holder's client yields the lock to other clients only when one waits and otherwise
	 * keeps passing it on among its own callers. A store that cannot tell answers that
	 * another client may wait (this default), so its holders yield after every run of
	 * hand-overs. The answer is a reading of who waits when the step ran, not part of the
	 * grant: a replay answers the grant as the first did and reads the waiters again.
	 * @param key the lock key
	 * @param token the owner token of the holder
	 * @param nextToken the owner token of the next holder, unique per acquisition
	 * @param lease the next holder's lease
	 * @param client the id under which the holder's client registers as waiting (the
	 * waiter of {@link WakeOneExtension})
	 * @return the grant or refusal, with whether another client waits; or {@code null}
	 * when the store does not hand over this time; failed as
	 * {@link #handOver(String, String, String, Duration)} fails
	 */
	default CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		return handOver(key, token, nextToken, lease)
			.<@Nullable HandOff>thenApply((attempt) -> (attempt != null) ? new HandOff(attempt, true) : null);
	}

	/**
	 * What a hand-over did, and whether another client waits for the key.
	 *
	 * @param attempt the grant to the next token, or a refusal when the holder no longer
	 * owned the lock
	 * @param othersWait whether a client other than the holder's waits (or may wait) for
	 * the key
	 */
	record HandOff(Attempt attempt, boolean othersWait) {

	}

}
