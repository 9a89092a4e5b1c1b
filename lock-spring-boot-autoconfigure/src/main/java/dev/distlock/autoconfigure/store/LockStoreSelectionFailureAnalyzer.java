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

package dev.distlock.autoconfigure.store;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LockStoreSelectionException} in the startup failure report: which
 * store {@code distlock.store} selects or which stores are present, and what to change.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockStoreSelectionFailureAnalyzer extends AbstractFailureAnalyzer<LockStoreSelectionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LockStoreSelectionException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
