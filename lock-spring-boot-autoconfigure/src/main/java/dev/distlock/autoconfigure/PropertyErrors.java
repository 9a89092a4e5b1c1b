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

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Creates what the {@code distlock.*} properties describe, so that an invalid value fails
 * with a message that names the property ({@code distlock.watchdog-lease}) rather than
 * the constructor argument it was passed as ({@code 'watchdogLease'}).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class PropertyErrors {

	private static final Map<String, String> PROPERTIES = Map.ofEntries(
			Map.entry("watchdogLease", "distlock.watchdog-lease"), Map.entry("closeTimeout", "distlock.close-timeout"),
			Map.entry("renewalBatchSize", "distlock.renewal-batch-size"),
			Map.entry("fairGrantTimeout", "distlock.fair-grant-timeout"),
			Map.entry("cohortHandOffs", "distlock.cohort-hand-offs"),
			Map.entry("maxKeyLength", "distlock.max-key-length"), Map.entry("maxKeys", "distlock.max-keys"),
			Map.entry("maxHold", "distlock.max-hold"), Map.entry("keyPrefix", "distlock.redis.key-prefix"),
			Map.entry("defaultWaitTime", "distlock.wait-time"),
			Map.entry("minReplicas", "distlock.redis.replication.min-replicas"));

	private PropertyErrors() {
	}

	/**
	 * Return what {@code creation} creates from properties.
	 * @param <T> the type created
	 * @param creation creates it, validating its arguments
	 * @return what was created
	 * @throws IllegalArgumentException naming the property if an argument is invalid
	 */
	public static <T> T named(Supplier<T> creation) {
		return named(creation, Map.of());
	}

	/**
	 * Return what {@code creation} creates from properties.
	 * @param <T> the type created
	 * @param creation creates it, validating its arguments
	 * @param more the properties of more arguments, by argument name
	 * @return what was created
	 * @throws IllegalArgumentException naming the property if an argument is invalid
	 */
	public static <T> T named(Supplier<T> creation, Map<String, String> more) {
		try {
			return creation.get();
		}
		catch (IllegalArgumentException ex) {
			String message = String.valueOf(ex.getMessage());
			Map<String, String> properties = new HashMap<>(PROPERTIES);
			properties.putAll(more);
			for (Map.Entry<String, String> property : properties.entrySet()) {
				message = message.replace("'" + property.getKey() + "'", property.getValue());
			}
			// not chained: the root cause would name the argument instead of the property
			throw new IllegalArgumentException("Invalid distlock configuration: " + message);
		}
	}

}
