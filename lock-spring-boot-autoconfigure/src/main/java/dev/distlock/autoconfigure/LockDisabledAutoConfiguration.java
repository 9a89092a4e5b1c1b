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

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} that is on only with {@code distlock.enabled=false}: it warns at
 * startup about the {@link dev.distlock.annotation.DistributedLock @DistributedLock}
 * methods, which then run without any lock.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "distlock.enabled", havingValue = false)
public final class LockDisabledAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static UnlockedMethodsWarning distlockUnlockedMethodsWarning() {
		return new UnlockedMethodsWarning();
	}

}
