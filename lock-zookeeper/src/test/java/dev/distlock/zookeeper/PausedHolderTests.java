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
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A holder process paused ({@code kill -STOP}) past its session while another instance
 * waits for its lock: once the other instance holds the lock, the paused holder, resumed,
 * never believes it holds it, sampled every 2 ms. Its session is 6 s and its lease 2 s,
 * the documented third.
 *
 * @author distlock
 */
@DisabledOnOs(OS.WINDOWS)
class PausedHolderTests {

	private static final String KEY = "paused:1";

	@Test
	void aHolderPausedPastItsSessionNeverBelievesItHoldsOnceAnotherAcquired(@TempDir Path logs) throws Exception {
		try (TestingServer server = new TestingServer(true)) {
			Process holder = start(logs.resolve("holder.log"), server.getConnectString());
			try (BufferedReader out = new BufferedReader(
					new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
					Writer in = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8);
					CuratorFramework client = newClient(server)) {
				String held = line(out, "HELD ");
				assertThat(held).as("the holder's first line").startsWith("HELD ");
				DefaultLockClient locks = new DefaultLockClient(
						new ZooKeeperLockStore(client, PausedHolderMain.SESSION),
						LockClientSettings.defaults().withWatchdogLease(PausedHolderMain.LEASE));
				signal(holder, "-STOP");
				long acquiredAt;
				try (LockHold hold = locks.acquire(KEY, Duration.ofSeconds(30), null)) {
					acquiredAt = System.currentTimeMillis();
					assertThat(hold.fencingToken()).isGreaterThan(Long.parseLong(held.substring(5)));
					signal(holder, "-CONT");
					// Asserting that nothing happens meanwhile: the holder samples its
					// view
					// for 3 s, longer than its lease, while this instance holds
					Thread.sleep(3000);
					assertThat(hold.isValid()).isTrue();
				}
				finally {
					locks.close();
				}
				in.write("REPORT " + acquiredAt + "\n");
				in.flush();
				String report = line(out, "SAMPLES ");
				assertThat(report).as("the holder's report").startsWith("SAMPLES ");
				List<String> words = List.of(report.split(" "));
				assertThat(Long.parseLong(words.get(1))).as("samples taken after the other acquired")
					.isGreaterThan(100);
				assertThat(Long.parseLong(words.get(3))).as("samples that saw the hold valid after the other acquired")
					.isZero();
			}
			finally {
				signal(holder, "-CONT");
				holder.destroy();
				holder.waitFor(10, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * Return the next line of the holder that starts with {@code prefix}, skipping its
	 * log lines.
	 */
	private static String line(BufferedReader out, String prefix) throws IOException {
		String line;
		while ((line = out.readLine()) != null) {
			if (line.startsWith(prefix)) {
				return line;
			}
		}
		throw new IllegalStateException("The holder ended without a line starting with '" + prefix + "'");
	}

	private static Process start(Path log, String connectString) {
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
				"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				PausedHolderMain.class.getName(), connectString, KEY);
		try {
			return new ProcessBuilder(command).redirectError(log.toFile()).start();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start the holder", ex);
		}
	}

	private static void signal(Process process, String signal) throws Exception {
		Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start();
		assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
	}

	private static CuratorFramework newClient(TestingServer server) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs((int) PausedHolderMain.SESSION.toMillis())
			.connectionTimeoutMs(3000)
			.retryPolicy(new RetryNTimes(3, 100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
