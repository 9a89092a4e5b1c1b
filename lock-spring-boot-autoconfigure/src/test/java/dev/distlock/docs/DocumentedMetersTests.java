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
package dev.distlock.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockLostException;
import dev.distlock.autoconfigure.LockAutoConfiguration;
import dev.distlock.autoconfigure.observation.LockMetricsAutoConfiguration;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.memory.ControllableInMemoryLockStore;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the meters the documentation names are those an application registers and
 * Prometheus exports: an application context with the auto-configured lock client and a
 * {@link PrometheusMeterRegistry} takes a lock, is refused a busy one, loses one and
 * renews one, so that every meter is registered, and its scrape is compared with the
 * README and docs/ (see CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class DocumentedMetersTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockMetricsAutoConfiguration.class))
		.withBean(ControllableInMemoryLockStore.class, ControllableInMemoryLockStore::new)
		.withBean(PrometheusMeterRegistry.class, DocumentedMetersTests::prometheus)
		.withPropertyValues("distlock.watchdog-lease=600ms");

	@Test
	void theDocumentedMetersAreThoseAnApplicationRegistersAndPrometheusExports() {
		this.contextRunner.run((context) -> {
			DefaultLockClient client = context.getBean(DefaultLockClient.class);
			ControllableInMemoryLockStore store = context.getBean(ControllableInMemoryLockStore.class);
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			LockHold held = client.acquire("orders", "held", Duration.ZERO, null);
			store.takeOver("busy", "another-instance");
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> client.acquire("orders", "busy", Duration.ZERO, null));
			LockHold lost = client.acquire("orders", "lost", Duration.ZERO, null);
			store.takeOver("lost", "another-instance");
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::release);
			await().atMost(Duration.ofSeconds(5)).until(() -> registry.find("distlock.renewal").timer() != null);
			Map<String, Set<String>> tagKeys = tagKeys(registry);
			assertThat(tagKeys).containsOnlyKeys("distlock.acquire", "distlock.held", "distlock.lost",
					"distlock.renewal");
			String scrape = registry.scrape();
			held.release();
			Path root = RepositoryRoot.find();
			assertThat(DocumentedMeters.problems(root, MarkdownBlocks.pages(root),
					root.resolve("docs/observability.md"), tagKeys, scrape))
				.isEmpty();
		});
	}

	@Test
	void reportsAWrongPrometheusNameAnUndocumentedSeriesAndAWrongTag(@TempDir Path dir) throws IOException {
		Path page = Files.writeString(dir.resolve("observability.md"), """
				## Meters

				| Meter | Type | Tags | What |
				|---|---|---|---|
				| `distlock.lost` | Counter | `name`, `reason` = `taken` | lost |
				| `distlock.renewal` | Timer | `name`, `outcome` | batches |

				Alert on `distlock_lost_total` and `distlock.lost{cause="taken"}`.
				""");
		String scrape = """
				# TYPE distlock_lost_locks_total counter
				distlock_lost_locks_total{name="orders",reason="taken"} 1.0
				# TYPE distlock_renewal_seconds summary
				distlock_renewal_seconds_count{outcome="renewed"} 2
				""";
		Map<String, Set<String>> tagKeys = Map.of("distlock.lost", Set.of("name", "reason"), "distlock.renewal",
				Set.of("outcome"), "distlock.held", Set.of("name"));
		assertThat(DocumentedMeters.problems(dir, List.of(page), page, tagKeys, scrape)).containsExactly(
				"observability.md: meter distlock.held is registered but not in the Meters table",
				"observability.md: meter distlock.renewal is documented with the tags [name, outcome] but has [outcome]",
				"observability.md:8: distlock.lost{cause= names no registered meter tag",
				"observability.md:8: distlock_lost_total is not exported to Prometheus",
				"Prometheus series distlock_lost_locks_total is not documented",
				"Prometheus series distlock_renewal_seconds_count is not documented");
	}

	/**
	 * A Prometheus registry with the percentiles histogram of {@code distlock.acquire}
	 * enabled, as the Observability page tells its readers to do for the p99 query.
	 * @return the registry
	 */
	private static PrometheusMeterRegistry prometheus() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(new MeterFilter() {

			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				return id.getName().equals("distlock.acquire")
						? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
						: config;
			}

		});
		return registry;
	}

	private static Map<String, Set<String>> tagKeys(PrometheusMeterRegistry registry) {
		Map<String, Set<String>> tagKeys = new TreeMap<>();
		for (Meter meter : registry.getMeters()) {
			if (meter.getId().getName().startsWith("distlock.")) {
				Set<String> keys = tagKeys.computeIfAbsent(meter.getId().getName(), (name) -> new TreeSet<>());
				meter.getId().getTags().stream().map(Tag::getKey).forEach(keys::add);
			}
		}
		return tagKeys;
	}

}
