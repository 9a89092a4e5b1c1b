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

package dev.distlock.sample.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import redis.embedded.RedisServer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts an embedded Redis server when the one configured with
 * {@code spring.data.redis.host} and {@code spring.data.redis.port} does not answer, so
 * that the sample runs with one command. Logs a warning when it does. Disabled with
 * {@code sample.embedded-redis.enabled=false} (as in the {@code prod} profile), when
 * {@code spring.data.redis.url} is set, when {@code distlock.store} selects another store
 * than Redis (as in the {@code jdbc} profile) and during Spring AOT processing at build
 * time, which prepares the bean definitions without connecting to anything. The server is
 * stopped after every other bean of the context.
 *
 * @author distlock
 * @since 0.1.0
 */
public class EmbeddedRedisFallback implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	static final String ENABLED_PROPERTY = "sample.embedded-redis.enabled";

	private static final String BEAN_NAME = "embeddedRedisServer";

	private static final int CONNECT_TIMEOUT_MILLIS = 500;

	private static final Log logger = LogFactory.getLog(EmbeddedRedisFallback.class);

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (Boolean.getBoolean(AbstractAotProcessor.AOT_PROCESSING)
				|| !environment.getProperty(ENABLED_PROPERTY, Boolean.class, true)
				|| environment.containsProperty("spring.data.redis.url")
				|| !"redis".equalsIgnoreCase(environment.getProperty("distlock.store", "redis"))) {
			return;
		}
		String host = environment.getProperty("spring.data.redis.host", "localhost");
		int port = environment.getProperty("spring.data.redis.port", Integer.class, 6379);
		if (answers(host, port)) {
			return;
		}
		EmbeddedServer server = EmbeddedServer.start(freePort());
		logger.warn("No Redis answers at " + host + ":" + port + "; started an embedded Redis on 127.0.0.1:"
				+ server.port() + " for this instance only. Locks are not shared with other instances; set "
				+ "spring.data.redis.* to a real Redis, and " + ENABLED_PROPERTY + "=false in production.");
		environment.getPropertySources()
			.addFirst(new MapPropertySource(BEAN_NAME,
					Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", server.port())));
		registerForShutdown(context.getBeanFactory(), server);
	}

	private static void registerForShutdown(ConfigurableListableBeanFactory beanFactory, EmbeddedServer server) {
		beanFactory.registerSingleton(BEAN_NAME, server);
		if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
			// registered first, so destroyed last: after the lock client and the
			// connection
			registry.registerDisposableBean(BEAN_NAME, server);
		}
	}

	private static boolean answers(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free port for the embedded Redis", ex);
		}
	}

	/**
	 * A running embedded Redis server without persistence, bound to the loopback
	 * interface.
	 *
	 * @param server the server
	 * @param port its port
	 */
	record EmbeddedServer(RedisServer server, int port) implements DisposableBean {

		static EmbeddedServer start(int port) {
			try {
				RedisServer server = RedisServer.newRedisServer()
					.port(port)
					.bind("127.0.0.1")
					.setting("save \"\"")
					.setting("appendonly no")
					.build();
				server.start();
				return new EmbeddedServer(server, port);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not start an embedded Redis on port " + port, ex);
			}
		}

		@Override
		public void destroy() throws IOException {
			this.server.stop();
		}

	}

}
