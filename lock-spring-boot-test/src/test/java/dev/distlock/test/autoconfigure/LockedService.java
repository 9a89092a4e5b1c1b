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

package dev.distlock.test.autoconfigure;

import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.test.InMemoryLocks;
import dev.distlock.test.LockAssertions;

/**
 * A bean with a locked method, for the Spring tests; it checks from inside that it runs
 * under its lock.
 *
 * @author distlock
 */
public class LockedService {

	private final InMemoryLocks locks;

	private final AtomicInteger runs = new AtomicInteger();

	LockedService(InMemoryLocks locks) {
		this.locks = locks;
	}

	@DistributedLock(key = "'order:' + #p0")
	public String order(long userId) {
		LockAssertions.assertHeldByCurrentThread(this.locks, "order:" + userId);
		this.runs.incrementAndGet();
		return "ordered for " + userId;
	}

	int runs() {
		return this.runs.get();
	}

}
