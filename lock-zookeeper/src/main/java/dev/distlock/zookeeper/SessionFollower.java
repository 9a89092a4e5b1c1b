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

import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.store.LockStore.Subscription;
import dev.distlock.zookeeper.HeldNodes.Grant;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * What the store learns of its session and its grants' nodes between requests. Once the
 * connection is suspended (or the session lost) every grant made so far is lost and the
 * client is told at once ({@link #onInterrupted}), so that it ends every lease's view;
 * after a reconnect in the same session, the nodes of those grants are deleted, since
 * nobody trusts them any more. No watch is set per grant: a grant's node deleted while
 * held is found by the next renewal ({@link Renewals}). At each (re)connect it gives the
 * store the session negotiated then ({@link ZooKeeperLockStore#sessionNegotiated}), which
 * checks the lease again when that session is shorter than the first.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SessionFollower implements ConnectionStateListener {

	private static final Log logger = LogFactory.getLog(SessionFollower.class);

	private final ZooKeeperLockStore store;

	private final Set<Runnable> interruptionListeners = new CopyOnWriteArraySet<>();

	private final AtomicLong interruptions = new AtomicLong();

	SessionFollower(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Run {@code listener} each time the connection is suspended or the session lost.
	 */
	Subscription onInterrupted(Runnable listener) {
		this.interruptionListeners.add(listener);
		return () -> this.interruptionListeners.remove(listener);
	}

	/**
	 * Return how many times the connection was suspended or the session lost so far.
	 */
	long interruptions() {
		return this.interruptions.get();
	}

	void close() {
		this.interruptionListeners.clear();
	}

	/**
	 * Return the id of the client's current session, or 0 while it is not connected.
	 */
	long currentSession() {
		try {
			return this.store.client().getZookeeperClient().isConnected()
					? this.store.client().getZookeeperClient().getZooKeeper().getSessionId() : 0;
		}
		catch (Exception ex) {
			return 0;
		}
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
			this.interruptions.incrementAndGet();
			if (state == ConnectionState.LOST) {
				this.store.held().sessionExpired();
				this.store.readers().sessionExpired();
				this.store.marks().sessionLost();
				this.store.line().sessionLost();
			}
			this.store.held().connectionSuspended();
			this.store.readers().connectionSuspended();
			this.interruptionListeners.forEach(Runnable::run);
		}
		else if (state == ConnectionState.RECONNECTED) {
			freeSuspendedGrants();
			this.store.readers().reconnected();
			this.store.watches().reconnected();
			this.store.line().wakeAll();
		}
		if (state.isConnected()) {
			this.store.sessionNegotiated(this.store.sessionTimeout());
		}
	}

	/**
	 * Delete the nodes of the grants lost when the connection was suspended that the
	 * session still has: nobody trusts them any more, so they would only keep the keys
	 * from others until their holders release them.
	 */
	private void freeSuspendedGrants() {
		long session = currentSession();
		for (Grant grant : this.store.held().all()) {
			if (HeldNodes.CONNECTION_SUSPENDED.equals(grant.lost()) && grant.sessionId == session) {
				this.store.giveBack(grant.key, grant.token, "release");
			}
		}
	}

}
