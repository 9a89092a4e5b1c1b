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

/**
 * Properties of the @DistributedLock advice ({@code distlock.aspect.*}), a group of
 * {@link DistlockProperties}.
 *
 * @author distlock
 * @since 0.1.0
 */
public class LockAspectProperties {

	/**
	 * Order of the @DistributedLock advice among other advice on the same method. Lower
	 * values run further outside; the default runs outside @Transactional, so the lock is
	 * released after the transaction ends.
	 */
	private int order = 2147483547;

	/**
	 * Return the order.
	 * @return the order
	 */
	public int getOrder() {
		return this.order;
	}

	/**
	 * Set the order.
	 * @param order the order
	 */
	public void setOrder(int order) {
		this.order = order;
	}

}
