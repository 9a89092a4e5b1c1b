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

package dev.distlock.core;

/**
 * Why an acquisition of one of several keys ({@link AnyKeyTurns}) ended without a grant
 * and without being busy: every candidate it queued for was found empty by its holder
 * ({@link SegmentHold#releaseEmpty()}). The caller runs its filter again on fresh stock
 * and asks again; it never reaches the user.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SegmentsEmptied extends RuntimeException {

	private static final long serialVersionUID = 1L;

	SegmentsEmptied() {
		super("Every accepted segment was found empty", null, false, false);
	}

}
