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

package dev.distlock.test.autoconfigure;

import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.test.LockOrderChecker;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Test auto-configuration of the lock-order check, with
 * {@code distlock.test.lock-order-check=true} or {@link AutoConfigureLockOrderCheck}: the
 * {@link LockOrderChecker#shared() shared} {@link LockOrderChecker} as a
 * {@code LockClientListener} bean, before {@link LockAutoConfiguration} and
 * {@link InMemoryLocksAutoConfiguration} so that the lock client they define reports to
 * it.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(before = { LockAutoConfiguration.class, InMemoryLocksAutoConfiguration.class })
@ConditionalOnBooleanProperty(LockOrderCheckAutoConfiguration.PROPERTY)
public final class LockOrderCheckAutoConfiguration {

	/**
	 * The property that enables the check.
	 */
	static final String PROPERTY = "distlock.test.lock-order-check";

	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean
	LockOrderChecker lockOrderChecker() {
		return LockOrderChecker.shared();
	}

}
