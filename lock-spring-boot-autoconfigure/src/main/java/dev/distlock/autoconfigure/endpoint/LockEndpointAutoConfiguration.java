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
package dev.distlock.autoconfigure.endpoint;

import dev.distlock.autoconfigure.DistlockProperties;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.core.LockOperator;
import dev.distlock.leader.Leadership;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code distlock} actuator endpoint
 * ({@link DistlockEndpoint}) when the actuator is on the classpath and the endpoint is
 * available (exposed with {@code management.endpoints.web.exposure.include=distlock}), on
 * the application's {@link LockOperator} (the auto-configured lock client is one). Its
 * default access is read-only: force release also needs
 * {@code management.endpoint.distlock.access=unrestricted}.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(after = LockAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnSingleCandidate(LockOperator.class)
@EnableConfigurationProperties(DistlockProperties.class)
public final class LockEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	DistlockEndpoint distlockEndpoint(LockOperator lockClient, DistlockProperties properties,
			ObjectProvider<Leadership> leadership) {
		DistlockEndpointProperties endpoint = properties.getEndpoint();
		DistlockEndpoint distlockEndpoint = new DistlockEndpoint(lockClient, endpoint.isForceRelease(),
				Show.valueOf(endpoint.getShowKeys().name()), endpoint.getRoles());
		leadership.ifUnique(distlockEndpoint::setLeadership);
		return distlockEndpoint;
	}

}
