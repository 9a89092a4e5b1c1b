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

package dev.distlock.benchmarks.report;

import java.util.Locale;

/**
 * Number formatting for the tables.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Format {

	private Format() {
	}

	static String ops(double opsPerSecond) {
		return String.format(Locale.ROOT, "%,.0f", opsPerSecond);
	}

	static String micros(long nanos) {
		return String.format(Locale.ROOT, "%.1f", nanos / 1000.0);
	}

	static String ratio(double ratio) {
		return String.format(Locale.ROOT, "%.2fx", ratio);
	}

	static String percent(double fraction) {
		return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
	}

	static String hundredths(double value) {
		return String.format(Locale.ROOT, "%.2f", value);
	}

	static String millis(long nanos) {
		return decimal(nanos / 1e6);
	}

	static String decimal(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

}
