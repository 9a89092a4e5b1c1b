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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.testing.TcpProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder whose link to ZooKeeper is frozen by a proxy (a silent partition) past its
 * session while another instance waits: from the moment the other instance holds the
 * lock, the cut-off holder never sees its hold valid, sampled every 2 ms until after the
 * link thaws. Session 6 s, lease 2 s, the documented third.
 *
 * @author distlock
 */
class FrozenLinkTests {

	private static final Duration SESSION = Duration.ofSeconds(6);

	private static final Duration LEASE = Duration.ofSeconds(2);

	@Test
	void aHolderCutOffPastItsSessionNeverBelievesItHoldsOnceAnotherAcquired() throws Exception {
		try (TestingServer server = new TestingServer(true);
				TcpProxy proxy = TcpProxy.start("127.0.0.1", server.getPort());
				CuratorFramework cutOff = newClient(proxy.address());
				CuratorFramework other = newClient(server.getConnectString())) {
			DefaultLockClient holderLocks = new DefaultLockClient(new ZooKeeperLockStore(cutOff, SESSION),
					LockClientSettings.defaults().withWatchdogLease(LEASE));
			DefaultLockClient otherLocks = new DefaultLockClient(new ZooKeeperLockStore(other, SESSION),
					LockClientSettings.defaults().withWatchdogLease(LEASE));
			try {
				LockHold held = holderLocks.acquire("frozen:1", Duration.ZERO, null);
				AtomicBoolean otherHolds = new AtomicBoolean();
				AtomicLong samplesWhileOtherHolds = new AtomicLong();
				AtomicLong validWhileOtherHolds = new AtomicLong();
				AtomicBoolean sampling = new AtomicBoolean(true);
				Thread sampler = new Thread(() -> {
					while (sampling.get()) {
						boolean valid = held.isValid();
						if (otherHolds.get()) {
							samplesWhileOtherHolds.incrementAndGet();
							if (valid) {
								validWhileOtherHolds.incrementAndGet();
							}
						}
						try {
							Thread.sleep(2);
						}
						catch (InterruptedException ex) {
							return;
						}
					}
				}, "sampler");
				sampler.start();
				proxy.freeze();
				try (LockHold hold = otherLocks.acquire("frozen:1", Duration.ofSeconds(30), null)) {
					otherHolds.set(true);
					assertThat(hold.fencingToken()).isGreaterThan(held.fencingToken());
					await().atMost(Duration.ofSeconds(10)).until(() -> samplesWhileOtherHolds.get() > 100);
					proxy.thaw();
					// Asserting that nothing happens meanwhile: the cut-off holder
					// reconnects and its view is sampled for longer than its lease
					Thread.sleep(2500);
					assertThat(hold.isValid()).isTrue();
				}
				finally {
					sampling.set(false);
					sampler.join(5000);
				}
				assertThat(validWhileOtherHolds.get())
					.as("samples of the cut-off holder that saw its hold valid while the other held")
					.isZero();
				assertThat(held.isValid()).isFalse();
			}
			finally {
				otherLocks.close();
				holderLocks.close();
			}
		}
	}

	private static CuratorFramework newClient(String connectString) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs((int) SESSION.toMillis())
			.connectionTimeoutMs(3000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
