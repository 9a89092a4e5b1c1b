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

package dev.distlock.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The grants this store made and has not released: what it answers the watchdog from,
 * between round trips to ZooKeeper. A grant is lost once the connection was suspended,
 * its session expired or its node was seen deleted, and is never renewed again.
 *
 * @author distlock
 * @since 0.1.0
 */
final class HeldNodes {

	static final String SESSION_EXPIRED = "its ZooKeeper session expired, and the ephemeral node that held the lock "
			+ "was deleted with it";

	static final String NODE_DELETED = "its ZooKeeper node was deleted while it was held (force-released or "
			+ "removed by hand), so another client may own the key now";

	static final String CONNECTION_SUSPENDED = "the connection to ZooKeeper was suspended, so the store could no "
			+ "longer confirm its session; another client may own the key once the session ends";

	private final Map<GrantId, Grant> grants = new ConcurrentHashMap<>();

	void add(Grant grant) {
		this.grants.put(new GrantId(grant.key, grant.token), grant);
	}

	@Nullable Grant get(String key, String token) {
		return this.grants.get(new GrantId(key, token));
	}

	void remove(Grant grant) {
		this.grants.remove(new GrantId(grant.key, grant.token), grant);
	}

	/**
	 * Record that the session expired: every grant made so far is lost.
	 */
	void sessionExpired() {
		this.grants.values().forEach(Grant::sessionExpired);
	}

	/**
	 * Record that the connection was suspended: no grant made so far can be confirmed
	 * again, so each is lost.
	 */
	void connectionSuspended() {
		this.grants.values().forEach((grant) -> grant.lose(CONNECTION_SUSPENDED));
	}

	List<Grant> all() {
		return List.copyOf(this.grants.values());
	}

	private record GrantId(String key, String token) {

	}

	/**
	 * One grant: its node and what this store knows of it.
	 */
	static final class Grant {

		final String key;

		final String token;

		final String path;

		final long fencingToken;

		/** The session that created the node, which the node lives as long as. */
		final long sessionId;

		private volatile @Nullable String lost;

		Grant(String key, String token, String path, long fencingToken, long sessionId) {
			this.key = key;
			this.token = token;
			this.path = path;
			this.fencingToken = fencingToken;
			this.sessionId = sessionId;
		}

		void lose(String reason) {
			if (this.lost == null) {
				this.lost = reason;
			}
		}

		/**
		 * Record that the grant's session expired: a more precise reason than the
		 * suspended connection that may have been recorded before.
		 */
		void sessionExpired() {
			String known = this.lost;
			if (known == null || CONNECTION_SUSPENDED.equals(known)) {
				this.lost = SESSION_EXPIRED;
			}
		}

		@Nullable String lost() {
			return this.lost;
		}

	}

}
