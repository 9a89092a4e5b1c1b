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

import org.jspecify.annotations.Nullable;

/**
 * Properties of locked methods returning a CompletionStage or a reactive type
 * ({@code distlock.async.*}), a group of {@link DistlockProperties}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockAsyncProperties {

	/**
	 * Name of the Executor bean that bodies of locked methods returning a CompletionStage
	 * or a reactive type run on once their lock is granted. Empty for Spring Boot's
	 * applicationTaskExecutor when there is one, else a new thread per call (virtual when
	 * spring.threads.virtual.enabled is true on Java 21 or later).
	 */
	private @Nullable String executor;

	/**
	 * Return the name of the executor bean.
	 * @return the name of the executor bean, or {@code null}
	 */
	public @Nullable String getExecutor() {
		return this.executor;
	}

	/**
	 * Set the name of the executor bean.
	 * @param executor the name of the executor bean
	 */
	public void setExecutor(@Nullable String executor) {
		this.executor = executor;
	}

}
