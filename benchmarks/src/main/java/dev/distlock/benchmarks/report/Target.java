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

/**
 * One target of the issue, evaluated on a run.
 *
 * @param name what the target asks
 * @param measured what distlock achieved
 * @param reference what it was compared with
 * @param verdict {@code PASS}, {@code MISS} or {@code NOT MEASURED}
 * @param note what limits a miss, or how the figure was obtained
 * @author distlock
 * @since 0.1.0
 */
public record Target(String name, String measured, String reference, String verdict, String note) {

	static Target of(String name, String measured, String reference, boolean pass, String note) {
		return new Target(name, measured, reference, pass ? "PASS" : "MISS", note);
	}

	static Target notMeasured(String name, String reason) {
		return new Target(name, "-", "-", "NOT MEASURED", reason);
	}

}
