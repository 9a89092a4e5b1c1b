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

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import dev.distlock.LockAcquisitionException;

/**
 * An acquisition as its caller ({@link Locks}) sees it: started once, stoppable at any
 * instant. An {@link Acquisition}, or an {@link UncontendedAttempt} that becomes one when
 * refused.
 *
 * @author distlock
 * @since 0.1.0
 */
interface Acquiring {

	/**
	 * Start the acquisition.
	 * @return its outcome: one lease per key, in key order; or a
	 * {@link LockAcquisitionException} when busy, a {@link CancellationException} when
	 * stopped, the store's failure, or an {@link IllegalStateException} when the client
	 * is closed
	 */
	CompletableFuture<List<Lease>> start();

	/**
	 * Stop the acquisition: it gives up at once unless a request is in flight, in which
	 * case it gives up when the reply arrives, releasing a grant it brings.
	 * @param reason the outcome to report: a {@link CancellationException}, an
	 * interruption, the client's closing
	 */
	void stop(Throwable reason);

}
