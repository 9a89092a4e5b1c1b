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
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A lock library under test on ZooKeeper, reduced to what the workloads do: take a key,
 * exclusively or for reading, within a wait, then release it.
 *
 * @author distlock
 * @since 0.1.0
 */
enum ZooKeeperContender {

	/**
	 * distlock's {@link ZooKeeperLockStore} through a {@link DefaultLockClient}: its
	 * locks, its fair locks ({@link LockClient#fair()}) or its read locks
	 * ({@link LockClient#readLocks()}) with its locks as the write locks.
	 */
	DISTLOCK("distlock") {
		@Override
		Locker connect(CuratorFramework curator, boolean fair) {
			DefaultLockClient client = new DefaultLockClient(new ZooKeeperLockStore(curator, SESSION_TIMEOUT),
					LockClientSettings.defaults().withWatchdogLease(Duration.ofSeconds(20)));
			LockClient writes = fair ? client.fair() : client;
			return new Locker() {

				@Override
				public Release lock(String key, Access access, Duration wait) throws Exception {
					LockHold hold = ((access == Access.READ) ? client.readLocks() : writes).acquire(key, wait, null);
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
	 * Curator's {@link InterProcessMutex} (fair: it grants in order), or for reads and
	 * writes the two locks of an {@link InterProcessReadWriteLock}; one per key and
	 * thread, as its documentation uses them.
	 */
	CURATOR("Curator") {
		@Override
		Locker connect(CuratorFramework curator, boolean fair) {
			return (key, access, wait) -> {
				if (access == Access.EXCLUSIVE) {
					return acquire(new InterProcessMutex(curator, "/curator-locks/" + key), wait);
				}
				InterProcessReadWriteLock lock = new InterProcessReadWriteLock(curator, "/curator-rw-locks/" + key);
				return acquire((access == Access.READ) ? lock.readLock() : lock.writeLock(), wait);
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

	/**
	 * Connect the library.
	 * @param curator the client to connect it with
	 * @param fair whether its exclusive locks must be fair
	 */
	abstract Locker connect(CuratorFramework curator, boolean fair);

	private static Release acquire(InterProcessMutex mutex, Duration wait) throws Exception {
		if (!mutex.acquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("Not acquired within " + wait);
		}
		return mutex::release;
	}

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
	 * How a workload takes a key.
	 */
	enum Access {

		/** The exclusive lock of a workload without readers. */
		EXCLUSIVE,

		/** The read lock of a read-write workload. */
		READ,

		/** The write lock of a read-write workload. */
		WRITE

	}

	/**
	 * Takes keys.
	 */
	@FunctionalInterface
	interface Locker extends AutoCloseable {

		/**
		 * Take a key's lock.
		 * @param key the key
		 * @param access which lock
		 * @param wait how long to wait at most
		 * @return how to release it
		 * @throws Exception if the lock was not taken
		 */
		Release lock(String key, Access access, Duration wait) throws Exception;

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
