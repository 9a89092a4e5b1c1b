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

package dev.distlock.benchmarks.zookeeper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A lock library under test on ZooKeeper, reduced to what the workloads do: take a key
 * within a wait, then release it.
 *
 * @author distlock
 * @since 0.1.0
 */
enum ZooKeeperContender {

	/**
	 * distlock's {@link ZooKeeperLockStore} through a {@link DefaultLockClient}.
	 */
	DISTLOCK("distlock") {
		@Override
		Locker connect(CuratorFramework curator) {
			DefaultLockClient client = new DefaultLockClient(new ZooKeeperLockStore(curator, SESSION_TIMEOUT),
					LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(20)));
			return new Locker() {

				@Override
				public Release lock(String key, Duration wait) throws Exception {
					LockHold hold = client.acquire(key, wait, null);
					return hold::release;
				}

				@Override
				public void close() {
					client.close();
				}

			};
		}
	},

	/**
	 * Curator's {@link InterProcessMutex}, one per key and thread, as its documentation
	 * uses it.
	 */
	CURATOR("Curator InterProcessMutex") {
		@Override
		Locker connect(CuratorFramework curator) {
			return (key, wait) -> {
				InterProcessMutex mutex = new InterProcessMutex(curator, "/curator-locks/" + key);
				if (!mutex.acquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("Not acquired within " + wait);
				}
				return mutex::release;
			};
		}
	};

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(30);

	private final String label;

	ZooKeeperContender(String label) {
		this.label = label;
	}

	String label() {
		return this.label;
	}

	abstract Locker connect(CuratorFramework curator);

	static CuratorFramework curator(String connectString) throws InterruptedException {
		CuratorFramework curator = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
			.connectionTimeoutMs(15_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		curator.start();
		if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Could not connect to " + connectString);
		}
		return curator;
	}

	/**
	 * Takes keys.
	 */
	@FunctionalInterface
	interface Locker extends AutoCloseable {

		Release lock(String key, Duration wait) throws Exception;

		@Override
		default void close() {
		}

	}

	/**
	 * Releases what {@link Locker#lock} took.
	 */
	@FunctionalInterface
	interface Release {

		void release() throws Exception;

	}

}
