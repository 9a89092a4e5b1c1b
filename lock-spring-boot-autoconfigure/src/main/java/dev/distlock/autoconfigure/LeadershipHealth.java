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

import java.util.LinkedHashMap;
import java.util.Map;

import dev.distlock.leader.Leadership;

/**
 * What leadership adds to the {@code distlock} health: its name, whether this instance
 * leads, since when and with which fencing token. Not leading is healthy.
 *
 * @author distlock
 */
final class LeadershipHealth implements LockStoreHealth {

	private final Leadership leadership;

	LeadershipHealth(Leadership leadership) {
		this.leadership = leadership;
	}

	@Override
	public boolean contribute(Map<String, Object> details) {
		Map<String, Object> leader = new LinkedHashMap<>();
		leader.put("name", this.leadership.name());
		leader.put("leader", this.leadership.isLeader());
		this.leadership.leaderSince().ifPresent((since) -> leader.put("since", since.toString()));
		this.leadership.fencingToken().ifPresent((token) -> leader.put("fencingToken", token));
		details.put("leadership", leader);
		return false;
	}

}
