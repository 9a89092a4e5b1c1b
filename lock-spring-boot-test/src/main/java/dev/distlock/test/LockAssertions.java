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

package dev.distlock.test;

import java.util.List;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

/**
 * Assertions that code ran under a distributed lock, for tests on {@link InMemoryLocks}:
 * <pre class="code">
 * VoucherOrder order = assertRanUnderLock(locks, "order:7", () -&gt; service.order(1, 7));
 * </pre> They fail with an {@link AssertionError} that names the locks that were held.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockAssertions {

	private LockAssertions() {
	}

	/**
	 * Run {@code call} and check that it took the lock on {@code key} on the calling
	 * thread and did not lose it. The check sees the locks the client granted while the
	 * call ran, not what the call did inside them: to check that a collaborator is called
	 * under the lock, call {@link #assertHeldByCurrentThread} from a fake of it.
	 * @param <T> the result type
	 * @param locks the locks the code under test uses
	 * @param key the lock key the call must hold
	 * @param call the call, for example of a locked method
	 * @return the result of the call
	 * @throws AssertionError if the call threw, took no lock on {@code key} or lost it
	 */
	public static <T extends @Nullable Object> T assertRanUnderLock(InMemoryLocks locks, String key, Callable<T> call) {
		Thread caller = Thread.currentThread();
		long mark = locks.recorder().mark();
		T result;
		try {
			result = call.call();
		}
		catch (Exception ex) {
			throw new AssertionError("Expected the call to run under lock '" + key + "', but it threw " + ex
					+ "; locks it took: " + locks.recorder().holdsSince(mark), ex);
		}
		List<RecordedHold> taken = locks.recorder().holdsSince(mark);
		List<RecordedHold> matching = taken.stream()
			.filter((hold) -> hold.key().equals(key) && hold.isHeldBy(caller))
			.toList();
		if (matching.isEmpty()) {
			throw new AssertionError("Expected the call to run under lock '" + key + "', but "
					+ (taken.isEmpty() ? "it took no lock" : "the locks it took were " + taken));
		}
		if (matching.stream().allMatch((hold) -> hold.lossReason() != null)) {
			throw new AssertionError(
					"Expected the call to run under lock '" + key + "', but its hold was lost: " + matching);
		}
		return result;
	}

	/**
	 * Run {@code call} and check that it took the lock on {@code key} on the calling
	 * thread and did not lose it, as
	 * {@link #assertRanUnderLock(InMemoryLocks, String, Callable)} does for a call
	 * without a result.
	 * @param locks the locks the code under test uses
	 * @param key the lock key the call must hold
	 * @param call the call, for example of a locked method
	 * @throws AssertionError if the call threw, took no lock on {@code key} or lost it
	 */
	public static void assertRanUnderLock(InMemoryLocks locks, String key, Call call) {
		assertRanUnderLock(locks, key, () -> {
			call.run();
			return null;
		});
	}

	/**
	 * Check that the calling thread holds the lock on {@code key} now, for example from a
	 * fake collaborator that the locked code calls.
	 * @param locks the locks the code under test uses
	 * @param key the lock key
	 * @throws AssertionError if the calling thread does not hold the lock, or holds it
	 * but was told it was lost
	 */
	public static void assertHeldByCurrentThread(InMemoryLocks locks, String key) {
		Thread caller = Thread.currentThread();
		List<RecordedHold> open = locks.holds().stream().filter(RecordedHold::isOpen).toList();
		boolean held = open.stream()
			.anyMatch((hold) -> hold.key().equals(key) && hold.isHeldBy(caller) && hold.lossReason() == null);
		if (!held) {
			throw new AssertionError("Expected thread " + caller.getName() + " to hold lock '" + key
					+ "', but the locks held now are " + open);
		}
	}

	/**
	 * A call without a result that may throw.
	 */
	@FunctionalInterface
	public interface Call {

		/**
		 * Run the call.
		 * @throws Exception what the call throws
		 */
		void run() throws Exception;

	}

}
