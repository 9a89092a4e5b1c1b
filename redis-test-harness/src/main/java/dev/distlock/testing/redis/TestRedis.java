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

package dev.distlock.testing.redis;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.distlock.testing.BackendVersions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Provides real Redis servers to tests. {@link #endpoint()} is one server shared by the
 * test JVM, found in this order:
 * <ol>
 * <li>the {@code DISTLOCK_TEST_REDIS} environment variable ({@code host:port} or a
 * {@code redis://} URI);</li>
 * <li>a Testcontainers {@code redis:7} container when a Docker engine answers;</li>
 * <li>{@code redis-server} on the {@code PATH}, on a free loopback port, without
 * persistence;</li>
 * <li>the {@code redis-server} binary shipped in {@code embedded-redis}.</li>
 * </ol>
 * If none is available the calling test is skipped. {@link #startServer()} starts a
 * dedicated server process that a fault test may stop, kill or pause.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class TestRedis {

	/**
	 * Environment variable naming an existing Redis to test against.
	 */
	public static final String ENDPOINT_VARIABLE = "DISTLOCK_TEST_REDIS";

	private static @Nullable RedisEndpoint shared;

	private static @Nullable String unavailable;

	private TestRedis() {
	}

	/**
	 * Return the Redis shared by every test of this JVM, starting it on first use.
	 * @return the endpoint
	 */
	public static synchronized RedisEndpoint endpoint() {
		if (shared == null && unavailable == null) {
			shared = startShared();
		}
		Assumptions.assumeTrue(shared != null, unavailable);
		return shared;
	}

	/**
	 * Start a dedicated Redis process for a test that needs to stop, kill or pause it.
	 * Skips the test if no {@code redis-server} binary is available.
	 * @return the running server; close it when done
	 */
	public static RedisServerHandle startServer() {
		Optional<Path> binary = RedisBinaries.onPath().or(RedisBinaries::embedded);
		Assumptions.assumeTrue(binary.isPresent(), "No redis-server binary on the PATH or in embedded-redis");
		return RedisServerProcess.startOnFreePort(binary.get());
	}

	/**
	 * Start a Redis Cluster of {@code masters} dedicated processes, without replicas.
	 * Skips the test if no {@code redis-server} binary is available.
	 * @param masters how many masters share the hash slots
	 * @return the running cluster; close it when done
	 */
	public static RedisClusterHandle startCluster(int masters) {
		Optional<Path> binary = RedisBinaries.onPath().or(RedisBinaries::embedded);
		Assumptions.assumeTrue(binary.isPresent(), "No redis-server binary on the PATH or in embedded-redis");
		return RedisClusterHandle.start(binary.get(), masters);
	}

	/**
	 * Start a Redis master, a replica of it and a Sentinel that monitors it as
	 * {@link RedisSentinelHandle#MASTER_NAME}. Skips the test if no {@code redis-server}
	 * binary is available.
	 * @return the running master and Sentinel; close them when done
	 */
	public static RedisSentinelHandle startSentinel() {
		Optional<Path> binary = RedisBinaries.onPath().or(RedisBinaries::embedded);
		Assumptions.assumeTrue(binary.isPresent(), "No redis-server binary on the PATH or in embedded-redis");
		return RedisSentinelHandle.start(binary.get());
	}

	/**
	 * Start a Redis master, a replica of it and a Sentinel, as {@link #startSentinel()}
	 * does, with the Sentinel failing the master over after {@code downAfter} and the
	 * replica replicating through {@code replicationLink}, for example a proxy that
	 * delays or cuts replication. Skips the test if no {@code redis-server} binary is
	 * available.
	 * @param downAfter how long the master must not answer before the Sentinel fails it
	 * over
	 * @param replicationLink given the master's endpoint, the endpoint the replica
	 * replicates from
	 * @return the running master, replica and Sentinel; close them when done
	 */
	public static RedisSentinelHandle startSentinel(Duration downAfter,
			Function<RedisEndpoint, RedisEndpoint> replicationLink) {
		Optional<Path> binary = RedisBinaries.onPath().or(RedisBinaries::embedded);
		Assumptions.assumeTrue(binary.isPresent(), "No redis-server binary on the PATH or in embedded-redis");
		return RedisSentinelHandle.start(binary.get(), downAfter, replicationLink);
	}

	/**
	 * Start a Redis Cluster of {@code masters} dedicated processes, each with
	 * {@code replicasPerMaster} replicas. Skips the test if no {@code redis-server}
	 * binary is available.
	 * @param masters how many masters share the hash slots
	 * @param replicasPerMaster how many replicas each master has
	 * @return the running cluster; close it when done
	 */
	public static RedisClusterHandle startCluster(int masters, int replicasPerMaster) {
		Optional<Path> binary = RedisBinaries.onPath().or(RedisBinaries::embedded);
		Assumptions.assumeTrue(binary.isPresent(), "No redis-server binary on the PATH or in embedded-redis");
		return RedisClusterHandle.start(binary.get(), masters, replicasPerMaster);
	}

	/**
	 * Create a started Lettuce connection factory that finds the master through the
	 * Sentinel.
	 * @param sentinel the master and its Sentinel
	 * @param commandTimeout how long a command may take before it fails
	 * @return the connection factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisSentinelHandle sentinel, Duration commandTimeout) {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration()
			.master(RedisSentinelHandle.MASTER_NAME)
			.sentinel(sentinel.sentinel().host(), sentinel.sentinel().port());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Create a started Lettuce connection factory for a cluster.
	 * @param cluster the cluster
	 * @param commandTimeout how long a command may take before it fails
	 * @return the connection factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisClusterHandle cluster, Duration commandTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(
						cluster.endpoints().stream().map((node) -> node.host() + ":" + node.port()).toList()),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Start a dedicated Redis process from the binary shipped in embedded-redis, whatever
	 * is on the {@code PATH}.
	 * @return the running server; close it when done
	 */
	static RedisServerHandle startEmbeddedServer() {
		Optional<Path> binary = RedisBinaries.embedded();
		Assumptions.assumeTrue(binary.isPresent(), "embedded-redis has no binary for this platform");
		return RedisServerProcess.startOnFreePort(binary.get());
	}

	/**
	 * Create a started Lettuce connection factory for {@code endpoint}. Lettuce
	 * reconnects by itself when the server comes back.
	 * @param endpoint the server
	 * @param commandTimeout how long a command may take before it fails
	 * @return the connection factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisEndpoint endpoint, Duration commandTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(endpoint.host(), endpoint.port()),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Create an initialized template on {@code connectionFactory}.
	 * @param connectionFactory the connection factory
	 * @return the template
	 */
	public static StringRedisTemplate template(RedisConnectionFactory connectionFactory) {
		StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
		template.afterPropertiesSet();
		return template;
	}

	private static @Nullable RedisEndpoint startShared() {
		String configured = System.getenv(ENDPOINT_VARIABLE);
		if (configured != null && !configured.isBlank()) {
			return announce("the " + ENDPOINT_VARIABLE + " environment variable",
					() -> RedisEndpoint.parse(configured));
		}
		if (dockerAnswers()) {
			return announce("a Testcontainers redis:7 container", TestRedis::startContainer);
		}
		Optional<Path> onPath = RedisBinaries.onPath();
		if (onPath.isPresent()) {
			return announce(onPath.get() + " from the PATH", () -> startProcess(onPath.get()));
		}
		Optional<Path> embedded = RedisBinaries.embedded();
		if (embedded.isPresent()) {
			return announce("the embedded-redis binary", () -> startProcess(embedded.get()));
		}
		unavailable = "No Redis: no " + ENDPOINT_VARIABLE
				+ ", no Docker engine, no redis-server on the PATH and no embedded-redis binary for this platform";
		System.err.println("[distlock tests] " + unavailable + "; skipping the tests that need it");
		return null;
	}

	private static boolean dockerAnswers() {
		if (!dockerMayRun()) {
			return false;
		}
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * Whether a Docker engine could answer at all: configured through the environment or
	 * Testcontainers' properties, or a socket at a usual place. Checked before asking
	 * Testcontainers, which logs an error for every strategy it tries in vain.
	 */
	private static boolean dockerMayRun() {
		if (File.separatorChar == '\\' || System.getenv("DOCKER_HOST") != null
				|| System.getenv("TESTCONTAINERS_DOCKER_SOCKET_OVERRIDE") != null) {
			return true;
		}
		Path home = Path.of(System.getProperty("user.home"));
		String runtimeDirectory = System.getenv("XDG_RUNTIME_DIR");
		return Stream
			.of(Path.of("/var/run/docker.sock"), home.resolve(".testcontainers.properties"),
					home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"),
					Path.of((runtimeDirectory != null) ? runtimeDirectory : "/nonexistent", "docker.sock"))
			.anyMatch(Files::exists);
	}

	private static RedisEndpoint startContainer() {
		GenericContainer<?> container = new GenericContainer<>("redis:7").withExposedPorts(6379)
			.withCommand("redis-server", "--save", "", "--appendonly", "no");
		container.start();
		Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "distlock-test-redis-stop"));
		return new RedisEndpoint(container.getHost(), container.getMappedPort(6379));
	}

	private static RedisEndpoint startProcess(Path binary) {
		return RedisServerProcess.startOnFreePort(binary).endpoint();
	}

	private static RedisEndpoint announce(String source, Supplier<RedisEndpoint> start) {
		RedisEndpoint endpoint = start.get();
		System.err.println("[distlock tests] Redis at " + endpoint.uri() + " from " + source);
		recordVersion(endpoint);
		return endpoint;
	}

	private static void recordVersion(RedisEndpoint endpoint) {
		try {
			String info = RespProbe.send(endpoint, Duration.ofSeconds(5), "INFO", "server");
			BackendVersions.record("Redis",
					info.lines().filter((line) -> line.startsWith("redis_version:")).findFirst().orElse(null));
		}
		catch (IOException ex) {
			System.err.println("[distlock tests] could not read the Redis version: " + ex);
		}
	}

}
