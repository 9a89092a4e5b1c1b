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

package dev.distlock.sample.load;

/**
 * What the load commands' options have in common: an option of the form
 * {@code --name=value}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class CommandArguments {

	private CommandArguments() {
	}

	/**
	 * Return the whole number an option gives.
	 * @param arg the option, {@code --name=N}
	 * @return {@code N}
	 * @throws IllegalArgumentException naming the option if {@code N} is not a whole
	 * number
	 */
	static int number(String arg) {
		String value = arg.substring(arg.indexOf('=') + 1);
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + arg + "' needs a whole number, but got '" + value + "'", ex);
		}
	}

}
