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
import dev.distlock.autoconfigure.LockAspectAutoConfiguration;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.LockDisabledAutoConfiguration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
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
 * order they arrived, across the instances, whichever instance held the lock before.
 *
 * @author distlock
 */
class ZooKeeperTwoInstancesTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final List<String> entered = new CopyOnWriteArrayList<>();

	private static final Map<String, CountDownLatch> leave = new ConcurrentHashMap<>();

	private static TestingServer server;

	private static CuratorFramework observer;

	private final String basePath = "/two-instances-" + UUID.randomUUID();

	private final ApplicationContextRunner instance = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
				LockDisabledAutoConfiguration.class))
		.withBean(LineService.class);

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

	private static LineService service(ApplicationContext context) {
		return context.getBean(LineService.class);
	}

	/**
	 * Count the callers with a place in the key's line: the queue nodes under the one key
	 * node of the test's base path.
	 */
	private int placesInLine() throws Exception {
		List<String> keys = observer.getChildren().forPath(this.basePath);
		if (keys.isEmpty()) {
			return 0;
		}
		List<String> children = observer.getChildren().forPath(this.basePath + "/" + keys.get(0));
		return (int) children.stream().filter((child) -> child.startsWith("q-")).count();
	}

	public static class LineService {

		@DistributedLock(key = "'line'", fair = true, waitTime = "30s")
		public void enter(String caller) throws InterruptedException {
			entered.add(caller);
			leave.get(caller).await(30, TimeUnit.SECONDS);
		}

	}

}
