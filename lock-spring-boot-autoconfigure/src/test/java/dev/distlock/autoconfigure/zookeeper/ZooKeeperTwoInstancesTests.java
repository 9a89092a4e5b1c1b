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

package dev.distlock.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.LockDisabledAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two application instances on one ZooKeeper server (Curator's {@link TestingServer}),
 * each with its own session: callers of a {@code fair = true} method are granted in the
 * order they arrived, across the instances, whichever instance held the lock before; the
 * readers of a {@code mode = READ} method of both instances are inside at once, and a
 * writer waiting for them gets in before a reader that came after it.
 *
 * @author distlock
 */
class ZooKeeperTwoInstancesTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String PRICES = "prices";

	private static final List<String> entered = new CopyOnWriteArrayList<>();

	private static final Map<String, CountDownLatch> leave = new ConcurrentHashMap<>();

	private static TestingServer server;

	private static CuratorFramework observer;

	private final String basePath = "/two-instances-" + UUID.randomUUID();

	private final ApplicationContextRunner instance = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockDisabledAutoConfiguration.class))
		.withBean(LineService.class)
		.withBean(PricesService.class);

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
		observer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
		observer.start();
		assertThat(observer.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
	}

	@AfterAll
	static void stopServer() throws Exception {
		observer.close();
		server.close();
	}

	@Test
	void fairCallersOfTwoInstancesAreGrantedInTheOrderTheyArrived() {
		ApplicationContextRunner onServer = this.instance.withPropertyValues("distlock.store=zookeeper",
				"distlock.zookeeper.connect-string=" + server.getConnectString(),
				"distlock.zookeeper.base-path=" + this.basePath);
		onServer.run((first) -> onServer.run((second) -> {
			ExecutorService callers = Executors.newFixedThreadPool(4);
			try {
				List<String> order = List.of("a0", "b1", "a2", "b3");
				List<Future<?>> calls = new CopyOnWriteArrayList<>();
				for (int i = 0; i < order.size(); i++) {
					String caller = order.get(i);
					leave.put(caller, new CountDownLatch(1));
					LineService service = service((i % 2 == 0) ? first : second);
					calls.add(callers.submit(() -> {
						service.enter(caller);
						return null;
					}));
					if (i == 0) {
						await().atMost(WAIT).until(() -> entered.contains("a0"));
					}
					else {
						int places = i;
						await().atMost(WAIT).until(() -> placesInLine() == places);
					}
				}
				for (int i = 0; i < order.size(); i++) {
					int inside = i + 1;
					await().atMost(WAIT).until(() -> entered.size() == inside);
					assertThat(entered).as("callers inside, in the order they got the lock").hasSize(inside);
					leave.get(entered.get(i)).countDown();
				}
				for (Future<?> call : calls) {
					call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				}
				assertThat(entered).containsExactlyElementsOf(order);
			}
			finally {
				leave.values().forEach(CountDownLatch::countDown);
				callers.shutdownNow();
				entered.clear();
				leave.clear();
			}
		}));
	}

	@Test
	void readersOfTwoInstancesAreInsideAtOnceAndAWaitingWriterGoesBeforeALaterReader() {
		ApplicationContextRunner onServer = this.instance.withPropertyValues("distlock.store=zookeeper",
				"distlock.zookeeper.connect-string=" + server.getConnectString(),
				"distlock.zookeeper.base-path=" + this.basePath);
		onServer.run((first) -> onServer.run((second) -> {
			PricesService atFirst = first.getBean(PricesService.class);
			PricesService atSecond = second.getBean(PricesService.class);
			ExecutorService callers = Executors.newFixedThreadPool(4);
			try {
				for (String caller : List.of("r1", "r2", "w", "r3")) {
					leave.put(caller, new CountDownLatch(1));
				}
				List<Future<?>> calls = new CopyOnWriteArrayList<>();
				calls.add(callers.submit(() -> call(() -> atFirst.read("r1"))));
				calls.add(callers.submit(() -> call(() -> atSecond.read("r2"))));
				await().atMost(WAIT).until(() -> entered.containsAll(List.of("r1", "r2")));
				calls.add(callers.submit(() -> call(() -> atSecond.write("w"))));
				await().atMost(WAIT).until(() -> keyChildren().contains("writer-waiting"));
				calls.add(callers.submit(() -> call(() -> atFirst.read("r3"))));
				await().atMost(WAIT).until(() -> first.getBean(DefaultLockClient.class).waitingCount(PRICES) == 1);
				assertThat(entered).as("a reader after a waiting writer waits").containsExactlyInAnyOrder("r1", "r2");
				leave.get("r1").countDown();
				leave.get("r2").countDown();
				await().atMost(WAIT).until(() -> entered.contains("w"));
				assertThat(entered).as("the writer alone, before the later reader").hasSize(3).endsWith("w");
				leave.get("w").countDown();
				await().atMost(WAIT).until(() -> entered.contains("r3"));
				leave.get("r3").countDown();
				for (Future<?> call : calls) {
					call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				}
				// The two first readers entered at once, in either order
				assertThat(entered.subList(0, 2)).containsExactlyInAnyOrder("r1", "r2");
				assertThat(entered.subList(2, 4)).containsExactly("w", "r3");
			}
			finally {
				leave.values().forEach(CountDownLatch::countDown);
				callers.shutdownNow();
				entered.clear();
				leave.clear();
			}
		}));
	}

	private static @Nullable Void call(Call call) throws InterruptedException {
		call.run();
		return null;
	}

	private static LineService service(ApplicationContext context) {
		return context.getBean(LineService.class);
	}

	/**
	 * Count the callers with a place in the key's line: the queue nodes under the one key
	 * node of the test's base path.
	 */
	private int placesInLine() throws Exception {
		// fair places are "qf-<token>-<sequence>", the others "q-<instance>-<sequence>"
		return (int) keyChildren().stream()
			.filter((child) -> child.startsWith("q-") || child.startsWith("qf-"))
			.count();
	}

	/**
	 * Return the children of the one key node of the test's base path.
	 */
	private List<String> keyChildren() throws Exception {
		List<String> keys = observer.getChildren().forPath(this.basePath);
		return keys.isEmpty() ? List.of() : observer.getChildren().forPath(this.basePath + "/" + keys.get(0));
	}

	/**
	 * A call into a locked method.
	 */
	private interface Call {

		void run() throws InterruptedException;

	}

	public static class PricesService {

		@DistributedLock(key = "'" + PRICES + "'", mode = LockMode.READ, waitTime = "30s")
		public void read(String caller) throws InterruptedException {
			entered.add(caller);
			leave.get(caller).await(30, TimeUnit.SECONDS);
		}

		@DistributedLock(key = "'" + PRICES + "'", waitTime = "30s")
		public void write(String caller) throws InterruptedException {
			entered.add(caller);
			leave.get(caller).await(30, TimeUnit.SECONDS);
		}

	}

	public static class LineService {

		@DistributedLock(key = "'line'", fair = true, waitTime = "30s")
		public void enter(String caller) throws InterruptedException {
			entered.add(caller);
			leave.get(caller).await(30, TimeUnit.SECONDS);
		}

	}

}
