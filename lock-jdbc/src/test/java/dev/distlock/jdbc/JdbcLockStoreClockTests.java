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

package dev.distlock.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;
import dev.distlock.store.LockStore.KeyState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.distlock.jdbc.JdbcLockStoreTests.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JDBC store takes time from the database only: this JVM's clock and time zone, set
 * far ahead of or behind the database's, change nothing.
 *
 * @author distlock
 */
class JdbcLockStoreClockTests {

	private static final String TABLE = "distlock_clock_lock";

	/**
	 * The wall clock and the time zone of this JVM are what a store could wrongly use:
	 * the store's classes refer to neither.
	 */
	private static final List<String> WALL_CLOCK = List.of("currentTimeMillis", "java/time/Instant", "java/time/Clock",
			"java/time/LocalDateTime", "java/time/ZonedDateTime", "java/time/OffsetDateTime", "java/util/Date",
			"java/sql/Timestamp", "java/util/TimeZone", "java/util/Calendar");

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aTimeZoneOfThisJvmFarAheadOrBehindChangesNoLease(TestDatabase database) throws Exception {
		database.assumeAvailable();
		TimeZone original = TimeZone.getDefault();
		try (HikariDataSource pool = database.pool(2)) {
			JdbcLockSchema.initialize(pool, TABLE);
			try (JdbcLockStore store = new JdbcLockStore(pool,
					JdbcLockStoreSettings.builder().tableName(TABLE).build())) {
				for (String zone : List.of("Etc/GMT-14", "Etc/GMT+12")) {
					TimeZone.setDefault(TimeZone.getTimeZone(zone));
					String key = "clock:" + UUID.randomUUID();
					assertThat(join(store.tryAcquire(key, "owner:1", Duration.ofSeconds(2))).acquired()).isTrue();
					KeyState state = join(store.inspect(key));
					assertThat(state.ttl()).as(zone).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2));
					assertThat(join(store.tryAcquire(key, "owner:2", Duration.ofSeconds(2))).acquired()).as(zone)
						.isFalse();
					await().atMost(6, TimeUnit.SECONDS)
						.until(() -> join(store.tryAcquire(key, "owner:2", Duration.ofSeconds(2))).acquired());
				}
			}
		}
		finally {
			TimeZone.setDefault(original);
		}
	}

	@Test
	void theStoreNeverReadsThisJvmsWallClock() throws IOException {
		Path classes = Paths.get("target/classes/dev/distlock/jdbc");
		try (Stream<Path> files = Files.list(classes)) {
			List<Path> classFiles = files.filter((file) -> file.toString().endsWith(".class")).toList();
			assertThat(classFiles).isNotEmpty();
			for (Path classFile : classFiles) {
				String constants;
				try (InputStream in = Files.newInputStream(classFile)) {
					constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
				}
				assertThat(WALL_CLOCK).as(classFile.getFileName().toString())
					.noneMatch((reference) -> constants.contains(reference));
			}
		}
	}

}
