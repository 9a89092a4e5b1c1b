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

package dev.distlock.redis;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;
import org.junit.jupiter.api.Tag;

/**
 * The whole contract kit on a standalone Redis behind a decorator that changes nothing
 * ({@link ForwardingLockStore}, the base every decorator extends): a decorator keeps
 * every extension of the store it wraps, the ones that only state a limit included, so
 * the same groups run and the same refusals hold as on the undecorated store.
 *
 * @author distlock
 */
@Tag("slow")
class DecoratedRedisLockStoreContractTests extends RedisStandaloneLockStoreContractTests {

	@Override
	protected LockStore newStore() {
		return new ForwardingLockStore(super.newStore());
	}

}
