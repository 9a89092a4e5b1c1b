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

package org.apache.zookeeper;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.client.HostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;
import org.jspecify.annotations.Nullable;

/**
 * A ZooKeeper client that counts the requests it sends to the ensemble, by kind, as
 * Curator's {@code ZookeeperFactory} makes it: every request, synchronous or not, is
 * queued through its connection's {@code queuePacket}, which this client's connection
 * counts before sending. Pings, authentication and the watches a reconnect sets again are
 * not requests of the application and are not counted. (It lives in ZooKeeper's package
 * because the connection's factory method is package-private.)
 *
 * @author distlock
 */
public final class CountingZooKeeper extends ZooKeeper {

	private static final ThreadLocal<Counts> CONSTRUCTING = new ThreadLocal<>();

	private CountingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			ZKClientConfig config) throws IOException {
		super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
	}

	/**
	 * Make a client whose requests {@code counts} counts.
	 * @param counts the counts
	 * @param connectString the ensemble
	 * @param sessionTimeout the session timeout to ask for
	 * @param watcher the default watcher
	 * @param canBeReadOnly whether a read-only server may answer
	 * @param config the client's configuration, or {@code null}
	 * @return the client
	 * @throws IOException if it cannot be made
	 */
	public static ZooKeeper create(Counts counts, String connectString, int sessionTimeout, Watcher watcher,
			boolean canBeReadOnly, @Nullable ZKClientConfig config) throws IOException {
		CONSTRUCTING.set(counts);
		try {
			return new CountingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly,
					(config != null) ? config : new ZKClientConfig());
		}
		finally {
			CONSTRUCTING.remove();
		}
	}

	@Override
	ClientCnxn createConnection(String chrootPath, HostProvider hostProvider, int sessionTimeout,
			ZKClientConfig clientConfig, Watcher defaultWatcher, ClientCnxnSocket clientCnxnSocket,
			boolean canBeReadOnly) throws IOException {
		Counts counts = CONSTRUCTING.get();
		return new ClientCnxn(chrootPath, hostProvider, sessionTimeout, clientConfig, defaultWatcher, clientCnxnSocket,
				canBeReadOnly) {

			@Override
			public Packet queuePacket(RequestHeader h, ReplyHeader r, Record request, Record response, AsyncCallback cb,
					String clientPath, String serverPath, Object ctx, ZooKeeper.WatchRegistration watchRegistration,
					WatchDeregistration watchDeregistration) {
				if (counts != null && h != null) {
					counts.count(h.getType());
				}
				return super.queuePacket(h, r, request, response, cb, clientPath, serverPath, ctx, watchRegistration,
						watchDeregistration);
			}

		};
	}

	/**
	 * Requests counted by kind: writes (which go through the leader and change state) and
	 * reads (answered by the server the client is connected to).
	 */
	public static final class Counts {

		private final Map<Integer, AtomicLong> byType = new ConcurrentHashMap<>();

		void count(int type) {
			this.byType.computeIfAbsent(type, (t) -> new AtomicLong()).incrementAndGet();
		}

		/**
		 * Return the writes counted: creates, deletes, data sets and transactions.
		 * @return the count
		 */
		public long writes() {
			return sum(OpCode.create, OpCode.create2, OpCode.createContainer, OpCode.createTTL, OpCode.delete,
					OpCode.deleteContainer, OpCode.setData, OpCode.multi, OpCode.reconfig, OpCode.setACL);
		}

		/**
		 * Return the reads counted: existence checks, data and children reads, syncs and
		 * watches set.
		 * @return the count
		 */
		public long reads() {
			return sum(OpCode.exists, OpCode.getData, OpCode.getChildren, OpCode.getChildren2, OpCode.sync,
					OpCode.check, OpCode.getACL, OpCode.addWatch, OpCode.getAllChildrenNumber, OpCode.multiRead,
					OpCode.getEphemerals, OpCode.checkWatches, OpCode.removeWatches);
		}

		/**
		 * Forget every count.
		 */
		public void reset() {
			this.byType.clear();
		}

		private long sum(int... types) {
			long sum = 0;
			for (int type : types) {
				AtomicLong count = this.byType.get(type);
				sum += (count != null) ? count.get() : 0;
			}
			return sum;
		}

		@Override
		public String toString() {
			return "writes=" + writes() + ", reads=" + reads() + " " + this.byType;
		}

	}

}
