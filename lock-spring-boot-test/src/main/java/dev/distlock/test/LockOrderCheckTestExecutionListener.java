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

import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Fails a Spring test during which a lock-order inversion was found, when its application
 * context has a {@link LockOrderChecker} bean (set
 * {@code distlock.test.lock-order-check=true}, or use
 * {@link dev.distlock.test.autoconfigure.AutoConfigureLockOrderCheck
 * &#064;AutoConfigureLockOrderCheck}); registered in {@code META-INF/spring.factories}.
 * An inversion is reported once, by this listener or by {@link LockOrderCheckExtension}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockOrderCheckTestExecutionListener extends AbstractTestExecutionListener {

	@Override
	public void afterTestMethod(TestContext testContext) {
		if (testContext.hasApplicationContext()) {
			testContext.getApplicationContext()
				.getBeanProvider(LockOrderChecker.class)
				.ifAvailable(LockOrderChecker::verify);
		}
	}

}
