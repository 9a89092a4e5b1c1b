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

package dev.distlock.sample.voucher;

/**
 * Thrown when an order is refused for a business reason; nothing was written.
 *
 * @author distlock
 * @since 0.1.0
 */
public class OrderRejectedException extends RuntimeException {

	private final Reason reason;

	/**
	 * Create a new exception.
	 * @param reason why the order was refused
	 * @param message a description for the caller
	 */
	public OrderRejectedException(Reason reason, String message) {
		super(message);
		this.reason = reason;
	}

	/**
	 * Return why the order was refused.
	 * @return the reason
	 */
	public Reason getReason() {
		return this.reason;
	}

	/**
	 * Why an order was refused, with the stable {@code code} of its problem details.
	 */
	public enum Reason {

		/**
		 * The user already ordered this voucher.
		 */
		ALREADY_ORDERED("already-ordered"),

		/**
		 * No vouchers left.
		 */
		SOLD_OUT("sold-out"),

		/**
		 * The sale has not begun.
		 */
		NOT_STARTED("not-started"),

		/**
		 * The sale is over.
		 */
		ENDED("ended");

		private final String code;

		Reason(String code) {
			this.code = code;
		}

		/**
		 * Return the stable code of this reason.
		 * @return the code
		 */
		public String code() {
			return this.code;
		}

	}

}
