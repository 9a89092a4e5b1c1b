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
package dev.distlock.sample.observability;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.sample.SampleHttp;
import dev.distlock.sample.VoucherApplication;
import dev.distlock.sample.load.VoucherApiClient;
import dev.distlock.sample.voucher.OrderTransactionHooks;
import dev.distlock.sample.voucher.VoucherOrderService;
import dev.distlock.testing.redis.RedisEndpoint;
import dev.distlock.testing.redis.RedisServerHandle;
import dev.distlock.testing.redis.TestRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * distlock's observability in the sample application, with the actuator, over real HTTP
 * on a random port against real Redis: the {@code distlock.*} meters, the
 * {@code distlock.lock} observation, the {@code distlock} endpoint (including force
 * release and its safety) and the {@code distlock} health contributor. Each test starts
 * its own application.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class ObservabilityTests {

	private static final String ORDER_LOCK = "VoucherOrderService.order";

	private final JsonMapper json = JsonMapper.builder().build();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void closeResources() throws Exception {
		this.release.countDown();
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void metersCountABusyCallASuccessfulCallAndALostLeaseByNameAndOutcome() throws Exception {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "meters", "--distlock.watchdog-lease=3s");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Meters", 10);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 1);
		// a renewal batch of the watchdog while the first order holds the lock (every 1
		// s)
		await().atMost(Duration.ofSeconds(10))
			.until(() -> get(context, "actuator/metrics/distlock.renewal").statusCode() == 200);
		HttpResponse<String> busy = api.orderAsync(voucher, 1).join();
		assertThat(busy.statusCode()).as(busy.body()).isEqualTo(429);
		assertThat(count(context, "distlock.held", "name:" + ORDER_LOCK, "statistic", "ACTIVE_TASKS")).isEqualTo(1);
		this.release.countDown();
		assertThat(holding.join().statusCode()).isEqualTo(201);
		context.getBean(OrderTransactionHooks.class)
			.beforeCommit(2, () -> context.getBean(StringRedisTemplate.class).delete("lock:{order:2}"));
		HttpResponse<String> lost = api.orderAsync(voucher, 2).join();
		assertThat(lost.statusCode()).as(lost.body()).isEqualTo(503);
		assertThat(count(context, "distlock.acquire", "name:" + ORDER_LOCK + "&tag=outcome:acquired", "statistic",
				"COUNT"))
			.isEqualTo(2);
		assertThat(count(context, "distlock.acquire", "name:" + ORDER_LOCK + "&tag=outcome:busy", "statistic", "COUNT"))
			.isEqualTo(1);
		assertThat(count(context, "distlock.lost", "name:" + ORDER_LOCK + "&tag=reason:taken", "statistic", "COUNT"))
			.isEqualTo(1);
		assertThat(count(context, "distlock.held", "name:" + ORDER_LOCK, "statistic", "ACTIVE_TASKS")).isZero();
		assertThat(count(context, "distlock.renewal", "outcome:renewed", "statistic", "COUNT")).isPositive();
		JsonNode acquire = this.json.readTree(get(context, "actuator/metrics/distlock.acquire").body());
		assertThat(acquire.get("availableTags").findValuesAsString("tag")).containsExactlyInAnyOrder("name", "outcome");
		assertThat(context.getBean(OrderOutcomes.class).failureOf(2)).isInstanceOf(LockLostException.class);
	}

	@Test
	void thousandKeysThroughOneMethodMakeOneAcquireTimerPerOutcome() {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "cardinality");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Cardinality", 1000);
		VoucherOrderService orders = context.getBean(VoucherOrderService.class);
		for (long user = 1; user <= 1000; user++) {
			orders.order(voucher, user);
		}
		context.getBean(StringRedisTemplate.class).opsForValue().set("lock:{order:1001}", "another-instance");
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.order(voucher, 1001));
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> orders.order(voucher, 1001));
		context.getBean(StringRedisTemplate.class).delete("lock:{order:1001}");
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(registry.find("distlock.acquire").timers()).hasSize(2);
		assertThat(registry.get("distlock.acquire").tags("name", ORDER_LOCK, "outcome", "acquired").timer().count())
			.isEqualTo(1000);
		assertThat(registry.get("distlock.acquire").tags("name", ORDER_LOCK, "outcome", "busy").timer().count())
			.isEqualTo(2);
		assertThat(registry.find("distlock.acquire").timers()).extracting(Timer::getId)
			.allSatisfy(
					(id) -> assertThat(id.getTags()).extracting("key").containsExactlyInAnyOrder("name", "outcome"));
		assertThat(registry.find("distlock.held").longTaskTimers()).hasSize(1);
	}

	@Test
	void observationRecordsTheLockWithItsNameAndOutcomeAndLeavesTheKeyOutByDefault() {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "observation");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Observation", 10);
		assertThat(api.orderAsync(voucher, 7).join().statusCode()).isEqualTo(201);
		LockObservations observations = context.getBean(LockObservations.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> !observations.stopped().isEmpty());
		assertThat(observations.stopped()).singleElement().satisfies((observation) -> {
			assertThat(observation.name()).isEqualTo("distlock.lock");
			assertThat(observation.contextualName()).isEqualTo("lock " + ORDER_LOCK);
			assertThat(observation.low()).extracting("key")
				.containsExactlyInAnyOrder("distlock.name", "distlock.outcome");
			assertThat(observation.value("distlock.name")).isEqualTo(ORDER_LOCK);
			assertThat(observation.value("distlock.outcome")).isEqualTo("acquired");
			assertThat(observation.high()).extracting("key")
				.contains("distlock.fencing-token")
				.as("the key is left out unless distlock.observation.include-key=true")
				.doesNotContain("distlock.key");
		});
		assertThat(observations.events()).containsExactly("order:7 distlock.acquired");
	}

	@Test
	void endpointListsTheLockOfARunningRequestAndItsStateInRedis() throws Exception {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "endpoint");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Endpoint", 10);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 3);
		HttpResponse<String> list = get(context, "actuator/distlock");
		assertThat(list.statusCode()).isEqualTo(200);
		JsonNode locks = this.json.readTree(list.body());
		assertThat(locks.get("held").asInt()).isOne();
		JsonNode lock = locks.get("locks").get(0);
		assertThat(lock.get("name").asString()).isEqualTo(ORDER_LOCK);
		assertThat(lock.get("key").asString()).as("keys are masked by default").isEqualTo("******");
		assertThat(lock.get("holdStarted").asString()).isNotBlank();
		assertThat(lock.get("leaseRemainingMillis").asLong()).isPositive();
		assertThat(lock.get("fencingToken").asLong()).isPositive();
		assertThat(lock.get("thread").asString()).isNotBlank();
		assertThat(lock.get("waiting").asInt()).isZero();
		HttpResponse<String> key = get(context, "actuator/distlock/order:3");
		assertThat(key.statusCode()).isEqualTo(200);
		JsonNode state = this.json.readTree(key.body());
		assertThat(state.get("key").asString()).isEqualTo("******");
		assertThat(state.get("state").asString()).isEqualTo("held");
		HttpResponse<String> readOnly = delete(context, "actuator/distlock/order:3");
		assertThat(readOnly.statusCode()).as("the endpoint is read-only by default").isIn(404, 405);
		assertThat(this.json.readTree(get(context, "actuator/distlock/order:3").body()).get("state").asString())
			.isEqualTo("held");
		assertThat(state.get("heldByThisInstance").asBoolean()).isTrue();
		assertThat(state.get("ttlMillis").asLong()).isPositive();
		assertThat(state.get("holderClientId").asString()).isEqualTo(locks.get("clientId").asString());
		this.release.countDown();
		assertThat(holding.join().statusCode()).isEqualTo(201);
		JsonNode free = this.json.readTree(get(context, "actuator/distlock/order:3").body());
		assertThat(free.get("state").asString()).isEqualTo("free");
		assertThat(free.get("heldByThisInstance").asBoolean()).isFalse();
		assertThat(this.json.readTree(get(context, "actuator/distlock").body()).get("held").asInt()).isZero();
	}

	@Test
	void forceReleaseIsRefusedWithoutItsSwitchEvenWithUnrestrictedAccess(CapturedOutput output) throws Exception {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "refused",
				"--management.endpoint.distlock.access=unrestricted");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Refused", 10);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 4);
		HttpResponse<String> refused = delete(context, "actuator/distlock/order:4");
		assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
		assertThat(refused.body()).contains("distlock.endpoint.force-release");
		assertThat(output).contains("Refused to force-release lock 'order:4'");
		assertHeldUntilReleased(context, "order:4", holding);
	}

	@Test
	void forceReleaseIsRefusedWithItsSwitchButTheDefaultReadOnlyAccess() throws Exception {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "switch-only",
				"--distlock.endpoint.force-release=true");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Switch only", 10);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 6);
		HttpResponse<String> refused = delete(context, "actuator/distlock/order:6");
		assertThat(refused.statusCode()).as("no write operation without unrestricted access").isIn(404, 405);
		assertHeldUntilReleased(context, "order:6", holding);
	}

	@Test
	void forceReleaseWhenEnabledEndsTheHoldersCallWithLockLostException(CapturedOutput output) throws Exception {
		ConfigurableApplicationContext context = start(TestRedis.endpoint(), "forced",
				"--management.endpoint.distlock.access=unrestricted", "--distlock.endpoint.force-release=true");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Forced", 10);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 5);
		HttpResponse<String> released = delete(context, "actuator/distlock/order:5");
		assertThat(released.statusCode()).as(released.body()).isEqualTo(200);
		JsonNode body = this.json.readTree(released.body());
		assertThat(body.get("released").asBoolean()).isTrue();
		assertThat(body.get("heldByThisInstance").asBoolean()).isTrue();
		assertThat(output).contains("Force-released lock 'order:5'").contains("from 127.0.0.1");
		assertThat(this.json.readTree(get(context, "actuator/distlock/order:5").body()).get("state").asString())
			.isEqualTo("free");
		this.release.countDown();
		HttpResponse<String> order = holding.join();
		assertThat(order.statusCode()).as(order.body()).isEqualTo(503);
		assertThat(context.getBean(OrderOutcomes.class).failureOf(5)).isInstanceOf(LockLostException.class);
		assertThat(api.orderingUsers(voucher)).isEmpty();
		assertThat(count(context, "distlock.lost", "name:" + ORDER_LOCK + "&tag=reason:forced", "statistic", "COUNT"))
			.isEqualTo(1);
		assertThat(delete(context, "actuator/distlock/order:5").statusCode()).isEqualTo(404);
	}

	@Test
	void healthGoesDownWhenRedisStopsWhileALockIsHeldAndUpAgainAfter() throws Exception {
		RedisServerHandle redis = TestRedis.startServer();
		this.resources.add(redis);
		ConfigurableApplicationContext context = start(redis.endpoint(), "health", "--distlock.watchdog-lease=3s");
		VoucherApiClient api = api(context);
		long voucher = api.createVoucher("Health", 10);
		assertThat(get(context, "actuator/health/distlock").statusCode()).isEqualTo(200);
		CompletableFuture<HttpResponse<String>> holding = holdLockOfUser(context, api, voucher, 6);
		redis.stop();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> get(context, "actuator/health/distlock").statusCode() == 503);
		JsonNode down = this.json.readTree(get(context, "actuator/health/distlock").body());
		assertThat(down.get("status").asString()).isEqualTo("DOWN");
		assertThat(down.get("details").get("held").asInt()).isOne();
		assertThat(down.get("details").get("lastRenewalError").asString()).contains("not renewed")
			.as("names the type of the failure, not its message: the store's, or the watchdog's bound of one renewal "
					+ "interval when the store does not answer in time")
			.containsAnyOf("dev.distlock.LockBackendException", "java.util.concurrent.TimeoutException")
			.doesNotContain("failed to renew")
			.doesNotContain("did not answer");
		assertThat(down.get("details").get("lastRenewalErrorTime").asString()).isNotBlank();
		redis.start();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> get(context, "actuator/health/distlock").statusCode() == 200);
		assertThat(this.json.readTree(get(context, "actuator/health/distlock").body()).get("status").asString())
			.isEqualTo("UP");
		this.release.countDown();
		holding.join();
	}

	/**
	 * Send an order of {@code userId} that holds the user's lock inside its transaction
	 * until {@link #release} counts down.
	 */
	private CompletableFuture<HttpResponse<String>> holdLockOfUser(ConfigurableApplicationContext context,
			VoucherApiClient api, long voucher, long userId) {
		CountDownLatch holding = new CountDownLatch(1);
		context.getBean(OrderTransactionHooks.class).beforeCommit(userId, () -> {
			holding.countDown();
			try {
				this.release.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		CompletableFuture<HttpResponse<String>> order = api.orderAsync(voucher, userId);
		try {
			assertThat(holding.await(20, TimeUnit.SECONDS)).as("order of user %d holds its lock", userId).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return order;
	}

	private double count(ConfigurableApplicationContext context, String meter, String tags, String field,
			String statistic) {
		HttpResponse<String> response = get(context, "actuator/metrics/" + meter + "?tag=" + tags);
		assertThat(response.statusCode()).as(meter + " " + tags + ": " + response.body()).isEqualTo(200);
		for (JsonNode measurement : this.json.readTree(response.body()).get("measurements")) {
			if (measurement.get(field).asString().equals(statistic)) {
				return measurement.get("value").asDouble();
			}
		}
		throw new AssertionError("No " + statistic + " in " + response.body());
	}

	private static HttpResponse<String> get(ConfigurableApplicationContext context, String path) {
		return new SampleHttp(context.getEnvironment()).get(path);
	}

	/**
	 * Assert that the refused force release left {@code key} held, then let its holder
	 * finish and check that its order was created.
	 */
	private void assertHeldUntilReleased(ConfigurableApplicationContext context, String key,
			CompletableFuture<HttpResponse<String>> holding) throws Exception {
		assertThat(this.json.readTree(get(context, "actuator/distlock/" + key).body()).get("state").asString())
			.isEqualTo("held");
		this.release.countDown();
		assertThat(holding.join().statusCode()).isEqualTo(201);
	}

	private static HttpResponse<String> delete(ConfigurableApplicationContext context, String path) {
		return new SampleHttp(context.getEnvironment()).delete(path);
	}

	private ConfigurableApplicationContext start(RedisEndpoint redis, String database, String... extra) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
				"--spring.datasource.url=jdbc:h2:mem:observability-" + database + ";DB_CLOSE_DELAY=-1",
				"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
				"--sample.embedded-redis.enabled=false",
				"--management.endpoints.web.exposure.include=health,metrics,distlock",
				"--management.endpoint.health.show-details=always"));
		args.addAll(List.of(extra));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(VoucherApplication.class,
				OrderTransactionHooks.HooksConfiguration.class, ObservabilityTestConfiguration.class)
			.run(args.toArray(String[]::new));
		this.resources.add(context);
		return context;
	}

	private static VoucherApiClient api(ConfigurableApplicationContext context) {
		return new VoucherApiClient(HttpClient.newHttpClient(), new SampleHttp(context.getEnvironment()).uri("/"));
	}

	/**
	 * The recorders of order outcomes and lock observations. Not a
	 * {@code @Configuration}, so the sample's component scan of the test classes does not
	 * add it to other tests' applications.
	 */
	static class ObservabilityTestConfiguration {

		@Bean
		OrderOutcomes orderOutcomes() {
			return new OrderOutcomes();
		}

		@Bean
		LockObservations lockObservations() {
			return new LockObservations();
		}

	}

}
