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

package dev.distlock.autoconfigure;

import java.time.Duration;

/**
 * Properties of locked methods returning a reactive type ({@code distlock.reactive.*}), a
 * group of {@link DistlockProperties}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockReactiveProperties {

	/**
	 * How long a cancelled subscription of a locked method returning a Mono or a Flux
	 * keeps its lock before releasing it. The cancel is passed on to the method's
	 * publisher, but whether its work stopped cannot be seen; 0 releases at the cancel,
	 * for publishers whose work is known to stop with it.
	 */
	private Duration holdAfterCancel = Duration.ofSeconds(30);

	/**
	 * Return how long a cancelled subscription keeps its lock.
	 * @return how long a cancelled subscription keeps its lock
	 */
	public Duration getHoldAfterCancel() {
		return this.holdAfterCancel;
	}

	/**
	 * Set how long a cancelled subscription keeps its lock.
	 * @param holdAfterCancel how long a cancelled subscription keeps its lock
	 */
	public void setHoldAfterCancel(Duration holdAfterCancel) {
		this.holdAfterCancel = holdAfterCancel;
	}

}
