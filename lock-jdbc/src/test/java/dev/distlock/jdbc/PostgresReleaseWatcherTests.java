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

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The PostgreSQL release listener's reconnection: a pause that doubles with each failure
 * in a row, and a warning once failures repeat.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class PostgresReleaseWatcherTests {

	@Test
	void repeatedFailuresToConnectBackOffAndAreWarnedAbout(CapturedOutput output) {
		List<Long> attempts = new CopyOnWriteArrayList<>();
		PostgresReleaseWatcher watcher = new PostgresReleaseWatcher(() -> {
			attempts.add(System.nanoTime());
			throw new SQLException("password authentication failed");
		}, "distlock_lock", Duration.ofSeconds(1), Duration.ofMillis(50));
		try {
			await().atMost(10, TimeUnit.SECONDS).until(() -> attempts.size() >= 5);
			assertThat(output).contains("The release listener of the JDBC lock store failed "
					+ PostgresReleaseWatcher.FAILURES_BEFORE_WARNING + " times in a row");
			assertThat(output).contains("password authentication failed");
			assertThat(output)
				.doesNotContain("failed " + (PostgresReleaseWatcher.FAILURES_BEFORE_WARNING - 1) + " times in a row");
			// 50, 100, 200 then 400 ms between attempts
			assertThat(Duration.ofNanos(attempts.get(4) - attempts.get(3)))
				.isGreaterThanOrEqualTo(Duration.ofMillis(400));
		}
		finally {
			watcher.close();
		}
	}

}
