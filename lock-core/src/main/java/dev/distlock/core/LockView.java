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

/**
 * A view of a {@link DefaultLockClient} whose locks are of another kind (its fair or its
 * read locks): the same {@link LockClient} methods over the client's one engine, so its
 * locks are the client's own (one watchdog, one listener, one set of held locks), and
 * closing the view closes the client.
 *
 * @author distlock
 * @since 0.1.0
 */
abstract class LockView extends LockClientFacade {

	final Locks locks;

	final ThreadLocks threadLocks;

	final DefaultLockClient client;

	LockView(Locks locks, DefaultLockClient client) {
		this.locks = locks;
		this.threadLocks = new ThreadLocks(locks);
		this.client = client;
	}

	@Override
	final ThreadLocks threadLocks() {
		return this.threadLocks;
	}

	@Override
	final Locks locks() {
		return this.locks;
	}

	/**
	 * Close the client this view belongs to.
	 */
	@Override
	public final void close() {
		this.client.close();
	}

}
