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
package dev.distlock.autoconfigure.observation;

import dev.distlock.autoconfigure.DistlockProperties;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code distlock.lock} observation
 * ({@link ObservationLockClientListener}) when the application has an
 * {@link ObservationRegistry}. A {@link LockObservationConvention} bean replaces the
 * default convention, which carries the lock key only with
 * {@code distlock.observation.include-key=true}.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
public final class LockObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ObservationLockClientListener distlockObservations(ObservationRegistry observationRegistry,
			ObjectProvider<LockObservationConvention> convention, DistlockProperties properties) {
		return new ObservationLockClientListener(observationRegistry, convention
			.getIfUnique(() -> new DefaultLockObservationConvention(properties.getObservation().isIncludeKey())));
	}

}
