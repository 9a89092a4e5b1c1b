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

import java.util.function.Consumer;

import dev.distlock.store.LockStore.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link RedisLockStore} publishes and hears releases.
 *
 * @author distlock
 * @since 0.1.0
 */
interface ReleaseNotifications extends AutoCloseable {

	/**
	 * Run {@code listener} on every release published on {@code channel} for
	 * {@code waiter} (see {@link ChannelListeners}), with the message, and whenever
	 * releases may have been missed (the subscription was made or restored), with
	 * {@code null}. Does no blocking I/O.
	 * @param channel the release channel
	 * @param waiter the waiter the listener waits for, or {@code null} for every release
	 * @param listener the listener
	 * @return the subscription
	 */
	Subscription subscribe(String channel, @Nullable String waiter, Consumer<@Nullable String> listener);

	/**
	 * Return the command the release script publishes with.
	 * @return {@code publish} or {@code spublish}
	 */
	String publishCommand();

	@Override
	void close();

}
