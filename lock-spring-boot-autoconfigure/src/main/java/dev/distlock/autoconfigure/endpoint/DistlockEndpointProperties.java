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
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Properties of the distlock actuator endpoint ({@code distlock.endpoint.*}), a group of
 * {@link DistlockProperties}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class DistlockEndpointProperties {

	/**
	 * Whether DELETE /actuator/distlock/{key} may force-release a lock whoever holds it.
	 * The holder may still be working, so another caller can then take the lock while it
	 * does.
	 */
	private boolean forceRelease = false;

	/**
	 * When to show lock keys (often user or order ids) in the endpoint's answers;
	 * otherwise they are masked as ******. WHEN_AUTHORIZED shows them to an authenticated
	 * caller with one of the roles, or to any authenticated caller when no role is set.
	 */
	private KeyVisibility showKeys = KeyVisibility.NEVER;

	/**
	 * Roles a caller needs to see the keys when show-keys is WHEN_AUTHORIZED. Empty means
	 * any authenticated caller.
	 */
	private Set<String> roles = new LinkedHashSet<>();

	/**
	 * Return when keys are shown.
	 * @return when keys are shown
	 */
	public KeyVisibility getShowKeys() {
		return this.showKeys;
	}

	/**
	 * Set when keys are shown.
	 * @param showKeys when keys are shown
	 */
	public void setShowKeys(KeyVisibility showKeys) {
		this.showKeys = showKeys;
	}

	/**
	 * Return the roles that may see the keys.
	 * @return the roles
	 */
	public Set<String> getRoles() {
		return this.roles;
	}

	/**
	 * Set the roles that may see the keys.
	 * @param roles the roles
	 */
	public void setRoles(Set<String> roles) {
		this.roles = roles;
	}

	/**
	 * Return whether the endpoint may force-release a lock.
	 * @return whether force-release is allowed
	 */
	public boolean isForceRelease() {
		return this.forceRelease;
	}

	/**
	 * Set whether the endpoint may force-release a lock.
	 * @param forceRelease whether force-release is allowed
	 */
	public void setForceRelease(boolean forceRelease) {
		this.forceRelease = forceRelease;
	}

	/**
	 * When the endpoint shows lock keys, as Spring Boot's {@code show-values} of the
	 * {@code env} and {@code configprops} endpoints.
	 */
	public enum KeyVisibility {

		/**
		 * Never show keys: they are masked.
		 */
		NEVER,

		/**
		 * Show keys to authorized callers only.
		 */
		WHEN_AUTHORIZED,

		/**
		 * Always show keys.
		 */
		ALWAYS

	}

}
