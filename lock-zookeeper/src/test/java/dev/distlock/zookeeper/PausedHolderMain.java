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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * A lock holder in a JVM of its own, for {@link PausedHolderTests}: it connects to the
 * ZooKeeper server its first argument names with a 6 s session, takes the lock of its
 * second argument with a 2 s watchdog lease (a third of the session) and prints
 * {@code HELD <fencing token>}. From then on it samples its hold's {@code isValid()}
 * every 2 ms. Given {@code REPORT <epoch millis>} on its stdin, it prints how many
 * samples it took from then on, and how many of them saw the hold valid.
 *
 * @author distlock
 */
public final class PausedHolderMain {

	static final Duration SESSION = Duration.ofSeconds(6);

	static final Duration LEASE = Duration.ofSeconds(2);

	private PausedHolderMain() {
	}

	public static void main(String[] args) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs((int) SESSION.toMillis())
			.connectionTimeoutMs(3000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Could not connect to " + args[0]);
		}
		ZooKeeperLockStore store = new ZooKeeperLockStore(client, SESSION);
		DefaultLockClient locks = new DefaultLockClient(store, LockClientSettings.defaults().withWatchdogLease(LEASE));
		LockHold hold = locks.acquire(args[1], Duration.ofSeconds(10), null);
		ConcurrentLinkedQueue<long[]> samples = new ConcurrentLinkedQueue<>();
		Thread sampler = new Thread(() -> {
			while (true) {
				samples.add(new long[] { System.currentTimeMillis(), hold.isValid() ? 1 : 0 });
				try {
					Thread.sleep(2);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "sampler");
		sampler.setDaemon(true);
		sampler.start();
		System.out.println("HELD " + hold.fencingToken());
		System.out.flush();
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null) {
			if (line.startsWith("REPORT ")) {
				long from = Long.parseLong(line.substring(7).trim());
				long taken = samples.stream().filter((sample) -> sample[0] >= from).count();
				long valid = samples.stream().filter((sample) -> sample[0] >= from && sample[1] == 1).count();
				System.out.println("SAMPLES " + taken + " VALID " + valid);
				System.out.flush();
			}
		}
		System.exit(0);
	}

}
