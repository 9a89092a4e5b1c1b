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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockHandle;
import dev.distlock.store.LockStore;
import dev.distlock.jdbc.JdbcLockStore;
import dev.distlock.sample.VoucherApplication;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application starts an embedded Redis only when the configured one does not answer,
 * never in profile {@code prod}, and never when {@code distlock.store} selects the JDBC
 * store.
 *
 * @author distlock
 */
class EmbeddedRedisFallbackTests {

	@Test
	void startsEmbeddedRedisWhenConfiguredRedisDoesNotAnswerAndStopsItOnClose() throws Exception {
		int silentPort = freePort();
		int embeddedPort;
		try (ConfigurableApplicationContext context = start(silentPort)) {
			embeddedPort = context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class);
			assertThat(embeddedPort).isNotEqualTo(silentPort);
			assertThat(context.containsBean("embeddedRedisServer")).isTrue();
			assertThat(ping(embeddedPort)).isTrue();
			LockHandle lock = context.getBean(LockClient.class).obtain("embedded-fallback");
			assertThat(lock.tryLock()).isTrue();
			assertThat(lock.fencingToken()).isPositive();
			lock.unlock();
		}
		assertThat(ping(embeddedPort)).isFalse();
	}

	@Test
	void usesConfiguredRedisWhenItAnswers() throws Exception {
		int port = TestRedis.endpoint().port();
		try (ConfigurableApplicationContext context = start(port,
				"--spring.data.redis.host=" + TestRedis.endpoint().host())) {
			assertThat(context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(port);
			assertThat(context.containsBean("embeddedRedisServer")).isFalse();
		}
	}

	@Test
	void neverStartsEmbeddedRedisInProdProfile() throws Exception {
		int silentPort = freePort();
		try (ConfigurableApplicationContext context = start(silentPort, "--spring.profiles.active=prod")) {
			assertThat(context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(silentPort);
			assertThat(context.containsBean("embeddedRedisServer")).isFalse();
		}
	}

	@Test
	void neverStartsEmbeddedRedisWhenDistlockStoreIsJdbc() throws Exception {
		int silentPort = freePort();
		try (ConfigurableApplicationContext context = start(silentPort, "--distlock.store=jdbc")) {
			assertThat(context.containsBean("embeddedRedisServer")).isFalse();
			assertThat(context.getBean(LockStore.class)).isInstanceOf(JdbcLockStore.class);
			// the table of Flyway's V4, then the lock table's script of the default mode
			// (embedded), in that order
			LockHandle lock = context.getBean(LockClient.class).obtain("jdbc-store");
			assertThat(lock.tryLock()).isTrue();
			assertThat(lock.fencingToken()).isPositive();
			lock.unlock();
		}
	}

	@Test
	void neverStartsEmbeddedRedisDuringAotProcessing() throws Exception {
		int silentPort = freePort();
		GenericApplicationContext context = new GenericApplicationContext();
		TestPropertyValues.of("spring.data.redis.port=" + silentPort).applyTo(context);
		System.setProperty(AbstractAotProcessor.AOT_PROCESSING, "true");
		try {
			new EmbeddedRedisFallback().initialize(context);
			assertThat(context.getBeanFactory().containsSingleton("embeddedRedisServer")).isFalse();
			assertThat(context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class))
				.isEqualTo(silentPort);
		}
		finally {
			System.clearProperty(AbstractAotProcessor.AOT_PROCESSING);
			context.getBeanFactory().destroySingletons();
		}
	}

	private static ConfigurableApplicationContext start(int redisPort, String... extraArgs) {
		String[] args = { "--spring.main.web-application-type=none", "--spring.main.banner-mode=off",
				"--spring.datasource.url=jdbc:h2:mem:embedded-redis-" + redisPort + ";DB_CLOSE_DELAY=-1",
				"--spring.data.redis.port=" + redisPort };
		String[] all = new String[args.length + extraArgs.length];
		System.arraycopy(args, 0, all, 0, args.length);
		System.arraycopy(extraArgs, 0, all, args.length, extraArgs.length);
		return new SpringApplicationBuilder(VoucherApplication.class).run(all);
	}

	private static boolean ping(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
			socket.setSoTimeout(2000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			int read = in.readNBytes(reply, 0, reply.length);
			return new String(reply, 0, read, StandardCharsets.US_ASCII).equals("+PONG\r\n");
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
