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

package dev.distlock.core;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Names the code that asks for a lock while it asks, so that what is logged about the
 * hold later (a hold kept past {@code distlock.max-hold}) says which method took it. The
 * {@code @DistributedLock} advice names the annotated method; code that calls
 * {@link LockClient} itself may name itself the same way:
 *
 * <pre class="code">
 * LockHold hold = LockCaller.call("ReportJob.run", () -&gt; client.acquire("report", Duration.ZERO, null));
 * </pre>
 *
 * The name is taken when an acquisition starts, on the calling thread; asking for a lock
 * does not need one.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockCaller {

	private static final ThreadLocal<@Nullable String> current = new ThreadLocal<>();

	private LockCaller() {
	}

	/**
	 * Run {@code acquisition} with {@code caller} as the name of the code asking for
	 * locks on this thread, then restore the name there was before.
	 * @param <T> the result type
	 * @param <E> the exception the acquisition may throw
	 * @param caller what asks, for example {@code OrderService.placeOrder}
	 * @param acquisition the calls that acquire locks
	 * @return what {@code acquisition} returned
	 * @throws E what {@code acquisition} threw
	 */
	public static <T extends @Nullable Object, E extends Exception> T call(String caller, Call<T, E> acquisition)
			throws E {
		Assert.hasText(caller, "'caller' must not be empty");
		String previous = current.get();
		current.set(caller);
		try {
			return acquisition.run();
		}
		finally {
			if (previous != null) {
				current.set(previous);
			}
			else {
				current.remove();
			}
		}
	}

	/**
	 * Return the name of the code asking for locks on this thread now.
	 * @return the caller, or {@code null} if none was named
	 */
	static @Nullable String current() {
		return current.get();
	}

	/**
	 * Calls that acquire locks.
	 *
	 * @param <T> the result type
	 * @param <E> the exception they may throw
	 */
	@FunctionalInterface
	public interface Call<T extends @Nullable Object, E extends Exception> {

		/**
		 * Acquire.
		 * @return the result
		 * @throws E if acquiring failed
		 */
		T run() throws E;

	}

}
