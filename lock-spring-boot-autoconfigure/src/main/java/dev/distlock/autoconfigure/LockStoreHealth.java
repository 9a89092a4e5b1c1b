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
 * What a lock store's configuration adds to the {@code distlock} health: details of its
 * connection, and whether that connection puts held locks at risk.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockStoreHealth {

	/**
	 * Add this store's details.
	 * @param details the health's details
	 * @return whether the health is down because of the store's connection
	 */
	boolean contribute(Map<String, Object> details);

}
