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

import java.util.function.Supplier;

/**
 * The mark of a thread that blocks until the store operation it starts next completes:
 * the engine sets it around the start of a synchronous acquisition (the first request of
 * {@code tryLock}, {@code acquire}) and of a synchronous release, and a store whose
 * client blocks may then run that one operation on the calling thread instead of handing
 * it to a thread of its own and back ({@link BlockingLockStore} does, within its command
 * timeout). The mark is taken by the first operation that asks for it ({@link #take()}),
 * so that work the engine starts for other callers on the same thread meanwhile (a turn
 * passed on, say) never runs there; it ends with the scope in any case. A store that
 * ignores the mark loses nothing but the saved thread hop; a non-blocking store must
 * ignore it. It never marks a thread of the engine or of a store.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class BlockingCaller {

	private static final ThreadLocal<Boolean> marked = new ThreadLocal<>();

	private BlockingCaller() {
	}

	/**
	 * Run {@code start} with the calling thread marked as blocking for the first store
	 * operation it starts; the mark ends when {@code start} returns, taken or not.
	 * @param <T> the result type
	 * @param start what starts the operation, returning its stage, say
	 * @return what {@code start} returned
	 */
	public static <T> T run(Supplier<T> start) {
		marked.set(Boolean.TRUE);
		try {
			return start.get();
		}
		finally {
			marked.remove();
		}
	}

	/**
	 * Return whether the calling thread blocks until the operation it is starting
	 * completes, taking the mark: a second call in the same scope answers {@code false}.
	 * @return whether the operation may run on the calling thread
	 */
	public static boolean take() {
		if (marked.get() == null) {
			return false;
		}
		marked.remove();
		return true;
	}

}
