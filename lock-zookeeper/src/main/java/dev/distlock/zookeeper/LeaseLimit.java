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

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.LockBackendException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The longest lease a {@link ZooKeeperLockStore} accepts, followed across sessions: a
 * third of the session the ensemble negotiated
 * ({@link ZooKeeperLockStore#longestLease()}). The lease was checked against the first
 * session at startup (by the auto-configuration); a session negotiated shorter
 * afterwards, for example after a server's configuration changed, makes every acquisition
 * and renewal with too long a lease fail, so that holds end with their lease rather than
 * outlive their session.
 *
 * @author distlock
 */
final class LeaseLimit {

	private static final Log logger = LogFactory.getLog(ZooKeeperLockStore.class);

	private final ZooKeeperLockStore store;

	/** The last lease refused as too long for the session, so that it is logged once. */
	private final AtomicReference<@Nullable String> refusedLease = new AtomicReference<>();

	/**
	 * The session timeout negotiated when the store first saw its client connected: what
	 * the startup check compared the lease with.
	 */
	private volatile @Nullable Duration firstSession;

	/** Whether a later session was negotiated shorter than the first. */
	private volatile boolean sessionShrank;

	LeaseLimit(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Record the session timeout negotiated at a (re)connect. The first one is what the
	 * startup check read; a later, shorter one makes the store check every lease again,
	 * and the lease renewed last at once (logged now, not at the next renewal).
	 * @param negotiated the session timeout negotiated
	 * @param lastLease the lease of the last renewal, if any
	 */
	void sessionNegotiated(Duration negotiated, @Nullable Duration lastLease) {
		Duration first = this.firstSession;
		if (first == null) {
			this.firstSession = negotiated;
		}
		else if (negotiated.compareTo(first) < 0) {
			this.sessionShrank = true;
			if (lastLease != null) {
				problem(lastLease);
			}
		}
	}

	/**
	 * Return the failure of an operation whose lease is longer than the longest lease
	 * once the ensemble negotiated a shorter session than the first, or {@code null}.
	 * @param key the key of the operation
	 * @param what the operation
	 * @param lease its lease
	 * @return the failure, or {@code null} when the lease may be used
	 */
	@Nullable LockBackendException refuse(String key, String what, Duration lease) {
		String problem = this.sessionShrank ? problem(lease) : null;
		return (problem != null) ? new LockBackendException(key, what, new IllegalStateException(problem)) : null;
	}

	/**
	 * Return why {@code lease} is too long for the session, logged at error once per
	 * lease and session timeout, or {@code null} when it is short enough.
	 */
	private @Nullable String problem(Duration lease) {
		Duration longest = this.store.longestLease();
		if (lease.compareTo(longest) <= 0) {
			return null;
		}
		String problem = "The watchdog lease (" + lease + ") is longer than a third of the ZooKeeper session timeout ("
				+ this.store.sessionTimeout()
				+ " as negotiated with the ensemble): a holder cut off from the ensemble could "
				+ "still trust its lease after its session ended; lower the lease to " + longest
				+ " or less, or raise the session timeout";
		if (!problem.equals(this.refusedLease.getAndSet(problem))) {
			logger.error(problem + ". Every acquisition and renewal fails until then");
		}
		return problem;
	}

}
