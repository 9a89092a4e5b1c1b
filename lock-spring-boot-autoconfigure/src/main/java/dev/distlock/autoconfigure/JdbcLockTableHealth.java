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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The JDBC store's part of the {@code distlock} health: down while its lock table (or the
 * table's sequence) is missing, which fails every call closed. Each health check asks the
 * database once, bounded by the command timeout; a check that fails or times out is
 * reported by the type of its error and does not make the health down by itself.
 *
 * @author distlock
 */
final class JdbcLockTableHealth implements LockStoreHealth {

	private final ObjectProvider<LockStore> lockStore;

	private final Duration commandTimeout;

	JdbcLockTableHealth(ObjectProvider<LockStore> lockStore, Duration commandTimeout) {
		this.lockStore = lockStore;
		this.commandTimeout = commandTimeout;
	}

	@Override
	public boolean contribute(Map<String, Object> details) {
		if (!(this.lockStore.getIfUnique() instanceof JdbcLockStore store)) {
			return false;
		}
		try {
			List<String> missing = store.missingSchemaObjects()
				.toCompletableFuture()
				.get(this.commandTimeout.toMillis() * 2, TimeUnit.MILLISECONDS);
			details.put("lockTable", missing.isEmpty() ? "present" : String.join(", ", missing));
			return !missing.isEmpty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			details.put("lockTable", "not checked (interrupted)");
			return false;
		}
		catch (Exception ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			details.put("lockTable", "not checked (" + cause.getClass().getName() + ")");
			return false;
		}
	}

}
