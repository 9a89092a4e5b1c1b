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

package dev.distlock.benchmarks.annotation;

import dev.distlock.annotation.DistributedLock;

/**
 * The bean the annotation benchmark calls: one method locked per order with a key
 * expression on its argument, and the same body unlocked.
 *
 * @author distlock
 * @since 0.1.0
 */
public class OrderService {

	/**
	 * Confirm an order under the order's lock.
	 * @param orderId the order
	 * @return a value depending on the argument, so the call cannot be optimised away
	 */
	@DistributedLock(key = "'order:' + #orderId")
	public long confirmLocked(long orderId) {
		return orderId * 31;
	}

	/**
	 * Confirm an order without a lock.
	 * @param orderId the order
	 * @return a value depending on the argument
	 */
	public long confirm(long orderId) {
		return orderId * 31;
	}

}
