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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.testing.TcpProxy;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * {@link LeadershipScenarios Leadership} on ZooKeeper (Curator's {@link TestingServer},
 * with a tick of 200 ms, so that sessions of 400 ms to 4 s are allowed): each instance
 * has its own session, through a proxy of its own. A leader cut off from the ensemble
 * (its proxy frozen, new links too) keeps its session on the server until the session
 * timeout, longer than the watchdog lease, which ran out on the leader's side before.
 *
 * @author distlock
 */
class ZooKeeperLeadershipTests extends LeadershipScenarios {

	/**
	 * Three times the scenarios' one-second lease: a ZooKeeper lease may be a third of
	 * the session at most.
	 */
	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private static TestingServer server;

	private final Map<String, TcpProxy> proxies = new ConcurrentHashMap<>();

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@AfterEach
	void closeProxies() {
		this.proxies.values().forEach(TcpProxy::close);
	}

	@Override
	ApplicationContextRunner onStore(ApplicationContextRunner runner) {
		TcpProxy proxy = TcpProxy.start("127.0.0.1", server.getPort());
		this.proxies.put(proxy.address(), proxy);
		return runner.withPropertyValues("distlock.store=zookeeper",
				"distlock.zookeeper.connect-string=" + proxy.address(),
				"distlock.zookeeper.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms",
				"test.proxy=" + proxy.address());
	}

	@Override
	Duration cutOff(ApplicationContext leader) {
		this.proxies.get(leader.getEnvironment().getProperty("test.proxy")).freeze();
		return SESSION_TIMEOUT;
	}

}
