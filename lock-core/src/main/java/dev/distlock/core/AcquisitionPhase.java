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
 * Where an {@link Acquisition} is: each event reads it, and only the acquisition's
 * {@code enter} changes it.
 *
 * @author distlock
 * @since 0.1.0
 */
enum AcquisitionPhase {

	/** Queued for the local turn of each key, for variants that take one. */
	TAKING_TURNS,

	/** A store request is in flight; its reply decides what comes next. */
	REQUESTING,

	/**
	 * Refused, or handed a turn with a yield: waiting for a release, a re-check or the
	 * deadline, whichever comes first.
	 */
	WAITING,

	/** Granted or given up; nothing changes any more. */
	DONE

}
