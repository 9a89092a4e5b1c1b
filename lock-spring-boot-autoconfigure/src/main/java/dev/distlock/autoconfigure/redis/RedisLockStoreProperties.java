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

package dev.distlock.autoconfigure.redis;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the Redis lock store ({@code distlock.redis.*}). The names
 * they replace ({@code distlock.key-prefix}, {@code distlock.replication.*}) still bind,
 * deprecated; a new name wins over its old one.
 *
 * @author distlock
 * @since 0.1.0
 */
@ConfigurationProperties("distlock.redis")
public class RedisLockStoreProperties {

	/**
	 * Prefix of every Redis key and channel of a lock. Must not contain '{' or '}'.
	 */
	private String keyPrefix = "lock:";

	private final Replication replication = new Replication();

	/**
	 * Return the key prefix.
	 * @return the key prefix
	 */
	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Set the key prefix.
	 * @param keyPrefix the key prefix
	 */
	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	/**
	 * Return the replica acknowledgement properties.
	 * @return the replica acknowledgement properties
	 */
	public Replication getReplication() {
		return this.replication;
	}

	/**
	 * Replica acknowledgement of lock grants.
	 */
	public static class Replication {

		/**
		 * Number of replicas that must acknowledge a lock grant (Redis WAIT) before the
		 * lock counts as acquired; with fewer, the grant is released and the acquisition
		 * fails. Zero does not wait for replicas. Needs Lettuce.
		 */
		private int minReplicas = 0;

		/**
		 * How long an acquisition waits for the replicas to acknowledge its grant.
		 */
		private Duration timeout = Duration.ofMillis(500);

		/**
		 * Return how many replicas must acknowledge a grant.
		 * @return the number of replicas
		 */
		public int getMinReplicas() {
			return this.minReplicas;
		}

		/**
		 * Set how many replicas must acknowledge a grant.
		 * @param minReplicas the number of replicas
		 */
		public void setMinReplicas(int minReplicas) {
			this.minReplicas = minReplicas;
		}

		/**
		 * Return how long an acquisition waits for the acknowledgements.
		 * @return the timeout
		 */
		public Duration getTimeout() {
			return this.timeout;
		}

		/**
		 * Set how long an acquisition waits for the acknowledgements.
		 * @param timeout the timeout
		 */
		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

	}

}
