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

package dev.distlock.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.distlock.sample.load.VoucherApiClient;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.TestRedis;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The sample, AOT-processed by the build ({@code spring-boot-maven-plugin:process-aot}),
 * started from its jar in its own JVM with {@code -Dspring.aot.enabled=true}: it uses the
 * generated bean definitions (startup fails without them) and takes orders under the
 * user's lock in Redis. Run by failsafe after the jar is packaged.
 *
 * @author distlock
 */
class VoucherApplicationAotTests {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private static final long USER = 7;

	private static final String JAR_PROPERTY = "sample.jar";

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	@TempDir
	private Path temp;

	@Test
	void aotProcessedSampleStartsWithAotEnabledAndPlacesOrdersUnderTheUsersLock() throws Exception {
		RedisEndpoint redis = TestRedis.endpoint();
		String keyPrefix = "sample-aot-" + UUID.randomUUID() + ":";
		String lockKey = keyPrefix + "{order:" + USER + "}";
		int port = freePort();
		Path log = this.temp.resolve("sample.log");
		Process sample = start(redis, keyPrefix, port, log);
		try {
			URI baseUri = URI.create("http://127.0.0.1:" + port);
			awaitReady(sample, baseUri, log);
			assertThat(Files.readString(log)).contains("Starting AOT-processed VoucherApplication");
			LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(redis.host(), redis.port()));
			connectionFactory.afterPropertiesSet();
			connectionFactory.start();
			try {
				placeOrders(new VoucherApiClient(this.http, baseUri), new StringRedisTemplate(connectionFactory),
						lockKey);
			}
			finally {
				connectionFactory.destroy();
			}
		}
		finally {
			stop(sample);
		}
	}

	private void placeOrders(VoucherApiClient api, StringRedisTemplate redis, String lockKey) throws Exception {
		long voucher = api.createVoucher("AOT", 10);

		redis.opsForValue().set(lockKey, "another-instance", Duration.ofSeconds(30));
		HttpResponse<String> busy = order(api, voucher);
		assertThat(busy.statusCode()).as(busy.body()).isEqualTo(429);
		assertThat(api.problemCode(busy.body())).isEqualTo("busy");
		assertThat(api.orderingUsers(voucher)).isEmpty();

		redis.delete(lockKey);
		HttpResponse<String> created = order(api, voucher);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		JsonNode order = this.json.readTree(created.body());
		assertThat(order.get("userId").asLong()).isEqualTo(USER);
		assertThat(order.get("voucherId").asLong()).isEqualTo(voucher);
		String fence = redis.opsForValue().get(lockKey + ":fence");
		assertThat(fence).as("fencing token granted in Redis for the user's lock").isNotNull();
		assertThat(order.get("fencingToken").asLong()).isEqualTo(Long.parseLong(fence));
		assertThat(redis.hasKey(lockKey)).as("lock released after the order").isFalse();
		assertThat(api.orderingUsers(voucher)).containsExactly(USER);
		assertThat(api.stock(voucher)).isEqualTo(9);

		HttpResponse<String> duplicate = order(api, voucher);
		assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(409);
		assertThat(api.problemCode(duplicate.body())).isEqualTo("already-ordered");
	}

	private static Process start(RedisEndpoint redis, String keyPrefix, int port, Path log) throws IOException {
		String packaged = System.getProperty(JAR_PROPERTY);
		Assumptions.assumeTrue(packaged != null,
				"needs the packaged sample: run by failsafe, which sets " + JAR_PROPERTY);
		Path jar = Paths.get(packaged);
		assertThat(jar).as("the packaged sample").isRegularFile();
		String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
		// a short-lived JVM: C1 only and the serial collector start faster
		List<String> command = List.of(java, "-Dspring.aot.enabled=true", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
				"-Xmx256m", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
				"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
				"--sample.embedded-redis.enabled=false", "--distlock.redis.key-prefix=" + keyPrefix,
				"--spring.main.banner-mode=off");
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private void awaitReady(Process sample, URI baseUri, Path log) throws Exception {
		HttpRequest health = HttpRequest.newBuilder(baseUri.resolve("/actuator/health"))
			.timeout(Duration.ofSeconds(5))
			.build();
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!sample.isAlive()) {
				fail("The AOT-processed sample exited with " + sample.exitValue() + " before it was ready:%n%s",
						Files.readString(log));
			}
			try {
				if (this.http.send(health, BodyHandlers.discarding()).statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(250);
		}
		fail("The AOT-processed sample was not ready within " + STARTUP_TIMEOUT + ":%n%s", Files.readString(log));
	}

	private static HttpResponse<String> order(VoucherApiClient api, long voucher) throws Exception {
		return api.orderAsync(voucher, USER).get(30, TimeUnit.SECONDS);
	}

	private static void stop(Process sample) throws InterruptedException {
		sample.destroy();
		if (!sample.waitFor(30, TimeUnit.SECONDS)) {
			sample.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
