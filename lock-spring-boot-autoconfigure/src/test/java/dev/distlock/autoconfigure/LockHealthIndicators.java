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

import java.util.Map;

/**
 * Reads the {@code distlock} health indicator of Spring Boot 3's or 4's health API, by
 * reflection, for tests that run on both.
 *
 * @author distlock
 */
public final class LockHealthIndicators {

	private LockHealthIndicators() {
	}

	public static String status(Object indicator) throws Exception {
		Object health = health(indicator);
		return String.valueOf(health.getClass().getMethod("getStatus").invoke(health));
	}

	@SuppressWarnings("unchecked")
	public static Map<String, Object> details(Object indicator) throws Exception {
		Object health = health(indicator);
		return (Map<String, Object>) health.getClass().getMethod("getDetails").invoke(health);
	}

	/**
	 * Call {@code health()} through the public interface the indicator implements, as the
	 * indicators themselves are package-private.
	 */
	private static Object health(Object indicator) throws Exception {
		for (Class<?> type : indicator.getClass().getInterfaces()) {
			if (type.getSimpleName().equals("HealthIndicator")) {
				return type.getMethod("health").invoke(indicator);
			}
		}
		return indicator.getClass().getMethod("health").invoke(indicator);
	}

}
