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

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit Jupiter extension that fails a test during which the
 * {@link LockOrderChecker#shared() shared} {@link LockOrderChecker} found a lock-order
 * inversion, showing the call paths of both orders. Registered by
 * {@link dev.distlock.test.autoconfigure.AutoConfigureLockOrderCheck
 * &#064;AutoConfigureLockOrderCheck}; with {@code distlock.test.lock-order-check=true}
 * alone, {@link LockOrderCheckTestExecutionListener} does the same in Spring tests.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockOrderCheckExtension implements AfterEachCallback {

	@Override
	public void afterEach(ExtensionContext context) {
		LockOrderChecker.shared().verify();
	}

}
