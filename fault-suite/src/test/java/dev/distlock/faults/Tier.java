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

package dev.distlock.faults;

/**
 * How much of the suite to run: {@code quick} in the default build (a few runs per
 * scenario), {@code full} with the {@code faults} profile (system property
 * {@code distlock.faults.tier}).
 *
 * @author distlock
 */
enum Tier {

	QUICK, FULL;

	static Tier current() {
		return "full".equalsIgnoreCase(System.getProperty("distlock.faults.tier", "quick")) ? FULL : QUICK;
	}

	/**
	 * Return the figure of this tier.
	 * @param quick in the quick tier
	 * @param full in the full tier
	 * @return the figure
	 */
	int pick(int quick, int full) {
		return (this == FULL) ? full : quick;
	}

}
