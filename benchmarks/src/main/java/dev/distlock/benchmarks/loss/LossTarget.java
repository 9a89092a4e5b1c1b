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

package dev.distlock.benchmarks.loss;

import java.io.File;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.benchmarks.JdbcTarget;
import dev.distlock.benchmarks.RedisServer;
import dev.distlock.benchmarks.contender.SpringRedis;
import dev.distlock.store.InspectionExtension;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.jdbc.JdbcLockStoreSettings;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.redis.RedisLockStore;
import dev.distlock.zookeeper.ZooKeeperLockStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A store the loss benchmark runs on: the holder's store, and an operator's own store
 * (another connection) that force-releases keys from under the holder.
 *
 * @author distlock
 * @since 0.1.0
 */
enum LossTarget {

	/**
	 * The in-memory store; the operator works on the same store.
	 */
	MEMORY("in-memory") {

		@Override
		@Nullable Opened open(File work) {
			InMemoryLockStore store = new InMemoryLockStore();
			return new Opened(store, store, () -> {
			});
		}

	},

	/**
	 * A {@code redis-server} the run starts; the operator has a connection of its own.
	 */
	REDIS("Redis") {

		@Override
		@Nullable Opened open(File work) throws Exception {
			RedisServer server = RedisServer.start(new File(work, "loss-redis.log"));
			LettuceConnectionFactory holder = SpringRedis.connectionFactory(server.endpoint());
			LettuceConnectionFactory operator = SpringRedis.connectionFactory(server.endpoint());
			return new Opened(new RedisLockStore(new StringRedisTemplate(holder)),
					new RedisLockStore(new StringRedisTemplate(operator)), () -> {
						holder.destroy();
						operator.destroy();
						server.close();
					});
		}

	},

	/**
	 * PostgreSQL at 127.0.0.1:5432, in the benchmarks' schema; skipped if it does not
	 * answer.
	 */
	POSTGRESQL("JDBC (PostgreSQL)") {

		@Override
		@Nullable Opened open(File work) throws Exception {
			JdbcTarget target = JdbcTarget.postgres();
			if (target == null) {
				return null;
			}
			target.recreate();
			HikariDataSource holder = target.dataSource("loss-holder", 4);
			HikariDataSource operator = target.dataSource("loss-operator", 2);
			String url = holder.getJdbcUrl();
			JdbcLockStore store = new JdbcLockStore(holder,
					JdbcLockStoreSettings.builder()
						.listenerConnectionFactory(() -> DriverManager.getConnection(url, holder.getUsername(), ""))
						.build());
			JdbcLockStore operatorStore = new JdbcLockStore(operator, JdbcLockStoreSettings.defaults());
			return new Opened(store, operatorStore, () -> {
				store.close();
				operatorStore.close();
				holder.close();
				operator.close();
				target.drop();
			});
		}

	},

	/**
	 * A ZooKeeper server the run starts in-process; the operator has a session of its
	 * own.
	 */
	ZOOKEEPER("ZooKeeper") {

		private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

		@Override
		@Nullable Opened open(File work) throws Exception {
			TestingServer server = new TestingServer(true);
			CuratorFramework holder = curator(server.getConnectString());
			CuratorFramework operator = curator(server.getConnectString());
			return new Opened(new ZooKeeperLockStore(holder, SESSION_TIMEOUT),
					new ZooKeeperLockStore(operator, SESSION_TIMEOUT), () -> {
						holder.close();
						operator.close();
						server.close();
					});
		}

		private CuratorFramework curator(String connect) throws InterruptedException {
			CuratorFramework curator = CuratorFrameworkFactory.builder()
				.connectString(connect)
				.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
				.retryPolicy(new ExponentialBackoffRetry(100, 3))
				.build();
			curator.start();
			if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Could not connect to " + connect);
			}
			return curator;
		}

	};

	private final String label;

	LossTarget(String label) {
		this.label = label;
	}

	String label() {
		return this.label;
	}

	/**
	 * Start the store.
	 * @param work a directory for logs
	 * @return the stores, or {@code null} if the backend does not answer
	 * @throws Exception if the backend cannot be started
	 */
	abstract @Nullable Opened open(File work) throws Exception;

	/**
	 * The holder's store, the operator's, and how to stop them.
	 *
	 * @param store the holder's store
	 * @param operator the operator's store, which force-releases keys
	 * @param closer stops both
	 */
	record Opened(LockStore store, LockStore operator, Closer closer) implements AutoCloseable {

		/**
		 * Delete {@code key} in the store whoever holds it, waiting for the answer.
		 * @param key the key
		 */
		void forceRelease(String key) {
			InspectionExtension inspection = this.operator.extension(InspectionExtension.class);
			if (inspection == null) {
				throw new IllegalStateException(this.operator + " cannot force-release keys");
			}
			inspection.forceRelease(key).toCompletableFuture().join();
		}

		@Override
		public void close() throws Exception {
			this.closer.close();
		}

	}

	/**
	 * Stops a target's backend.
	 */
	@FunctionalInterface
	interface Closer {

		void close() throws Exception;

	}

}
