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

package dev.distlock.memory;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.distlock.store.LockStore.Attempt;
import dev.distlock.store.ReadWriteTiming;
import org.jspecify.annotations.Nullable;

/**
 * The read-lock state of an {@link InMemoryLockStore}: per key, the readers with the end
 * of their lease and the mark of a writer waiting for them to leave
 * ({@link ReadWriteTiming}), pending the first time the writer is refused, active
 * (turning new readers away) when it is refused again.
 * <p>
 * It does not know the writers' grants: the store checks them first. Not thread-safe: the
 * store calls it under its monitor only.
 *
 * @author distlock
 * @since 0.1.0
 */
final class InMemoryReadLocks {

	private static final long WRITER_WAITING_NANOS = ReadWriteTiming.WRITER_WAITING.toNanos();

	private final Map<String, Map<String, Long>> readers = new HashMap<>();

	private final Map<String, WriterWaiting> writersWaiting = new HashMap<>();

	/**
	 * Let a reader with {@code token} share {@code key}, no writer holding it, unless an
	 * active writer-waiting mark turns it away.
	 */
	Attempt tryAcquire(String key, String token, Duration lease) {
		WriterWaiting waiting = liveWriterWaiting(key);
		if (waiting != null && waiting.active) {
			return Attempt.busy(Duration.ofNanos(Math.max(0, waiting.expiresAtNanos - System.nanoTime())));
		}
		this.readers.computeIfAbsent(key, (name) -> new LinkedHashMap<>())
			.put(token, System.nanoTime() + lease.toNanos());
		return Attempt.granted(0);
	}

	/**
	 * Return why a writer with {@code token} cannot take {@code key}, no writer holding
	 * it, marking it as waiting if readers hold the key (pending the first time, active
	 * when refused again, unless another writer's mark is there), or {@code null} if no
	 * reader holds it.
	 */
	@Nullable Attempt busyForWriter(String key, String token) {
		Map<String, Long> reading = live(key);
		if (reading.isEmpty()) {
			return null;
		}
		long now = System.nanoTime();
		WriterWaiting waiting = liveWriterWaiting(key);
		if (waiting == null || waiting.token.equals(token)) {
			this.writersWaiting.put(key, new WriterWaiting(token, waiting != null, now + WRITER_WAITING_NANOS));
		}
		long firstEnds = reading.values().stream().mapToLong(Long::longValue).min().orElse(now);
		Duration firstEnd = Duration.ofNanos(Math.max(0, firstEnds - now));
		boolean pending = waiting == null;
		return Attempt.busy((pending && firstEnd.compareTo(ReadWriteTiming.PENDING_WRITER_RECHECK) > 0)
				? ReadWriteTiming.PENDING_WRITER_RECHECK : firstEnd);
	}

	/**
	 * Clear the writer-waiting mark of {@code key} if it is the one of the writer with
	 * {@code token}, which has just been granted the key.
	 */
	void writerGranted(String key, String token) {
		WriterWaiting waiting = this.writersWaiting.get(key);
		if (waiting != null && waiting.token.equals(token)) {
			this.writersWaiting.remove(key);
		}
	}

	/**
	 * Drop the reader with {@code token} from {@code key}, its lease ended or not.
	 * @return {@code null} if {@code token} is no reader of {@code key}, else whether its
	 * lease was still running
	 */
	@Nullable Boolean release(String key, String token) {
		Map<String, Long> reading = this.readers.get(key);
		if (reading == null || !reading.containsKey(token)) {
			return null;
		}
		return System.nanoTime() - reading.remove(token) < 0;
	}

	/**
	 * Return the readers of {@code key} whose lease has not ended, dropping the others;
	 * an empty map (not stored) when there are none. The caller may extend the lease of a
	 * reader in it.
	 */
	Map<String, Long> live(String key) {
		Map<String, Long> reading = this.readers.get(key);
		if (reading == null) {
			return new HashMap<>();
		}
		long now = System.nanoTime();
		reading.values().removeIf((ends) -> now - ends >= 0);
		if (reading.isEmpty()) {
			this.readers.remove(key);
		}
		return reading;
	}

	/**
	 * Drop every reader of {@code key}.
	 */
	void drop(String key) {
		this.readers.remove(key);
	}

	private @Nullable WriterWaiting liveWriterWaiting(String key) {
		WriterWaiting waiting = this.writersWaiting.get(key);
		if (waiting != null && System.nanoTime() - waiting.expiresAtNanos >= 0) {
			this.writersWaiting.remove(key);
			return null;
		}
		return waiting;
	}

	private record WriterWaiting(String token, boolean active, long expiresAtNanos) {

	}

}
