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

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code distlock} health indicator on Spring Boot 4.x
 * ({@code org.springframework.boot.health.contributor}).
 *
 * @author distlock
 * @since 0.1.0
 * @see LockHealth
 */
final class Boot4LockHealthIndicator implements HealthIndicator {

	private final LockHealth health;

	Boot4LockHealthIndicator(LockHealth health) {
		this.health = health;
	}

	@Override
	public Health health() {
		LockHealth.State state = this.health.state();
		return (state.down() ? Health.down() : Health.up()).withDetails(state.details()).build();
	}

}
