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

package dev.distlock.leader;

import java.time.Instant;

import dev.distlock.core.LockHold;

/**
 * One term of this instance as leader: the hold of the leader lock, since when, and the
 * watch that notices its loss.
 *
 * @param hold the hold of the leader lock
 * @param since when the term began
 * @param watch the watch of the hold
 * @author distlock
 */
record LeaderTerm(LockHold hold, Instant since, HoldLossWatch watch) {

	long fencingToken() {
		return this.hold.fencingToken();
	}

}
