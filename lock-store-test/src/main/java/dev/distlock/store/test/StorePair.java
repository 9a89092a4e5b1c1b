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
package dev.distlock.store.test;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.store.LockStore;
import dev.distlock.store.LockStoreExtension;
import org.jspecify.annotations.Nullable;
import org.opentest4j.TestAbortedException;

/**
 * Two stores on the backend under test, as two application instances have, and the
 * helpers the SPI-level checks share ({@link LockStoreSpiChecks},
 * {@link LockStoreReplayChecks}, {@link ExtensionDutyChecks}).
 *
 * @author distlock
 */
final class StorePair implements AutoCloseable {

	final LockStore one;

	final LockStore other;

	StorePair(Supplier<LockStore> stores) {
		this.one = stores.get();
		this.other = stores.get();
	}

	@Override
	public void close() {
		this.one.close();
		this.other.close();
	}

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static String key(String name) {
		return name + ":" + UUID.randomUUID();
	}

	static <E extends LockStoreExtension> E extension(LockStore store, Class<E> type) {
		E extension = store.extension(type);
		if (extension == null) {
			throw new TestAbortedException("the store does not implement " + type.getSimpleName());
		}
		return extension;
	}

	static <T extends @Nullable Object> T join(CompletionStage<T> stage) {
		return stage.toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
	}

}
