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

import dev.distlock.autoconfigure.observation.MicrometerLockClientListener;
import java.time.Duration;

import dev.distlock.LockLostException;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockCaller;
import dev.distlock.core.LockClientSettings;
import dev.distlock.core.LockHold;
import dev.distlock.memory.ControllableInMemoryLockStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code distlock.max-hold}: a hold older than it is no longer renewed, its holder is
 * told it was lost, the loss is metered and logged, and the next local caller gets its
 * turn.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class MaxHoldTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ControllableInMemoryLockStore store = new ControllableInMemoryLockStore();

	private final DefaultLockClient client = new DefaultLockClient(this.store,
			LockClientSettings.defaults().withWatchdogLease(Duration.ofMillis(300)).withMaxHold(Duration.ofMillis(500)),
			new MicrometerLockClientListener(this.registry));

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void aHoldPastTheMaximumIsLostReportedMeteredAndLogged(CapturedOutput output) throws Exception {
		LockHold hold = this.client.acquire("job", "leaked", Duration.ZERO, null);
		await().atMost(Duration.ofSeconds(5)).until(() -> !hold.isValid());
		assertThat(this.client.renewedLeaseCount()).isZero();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.store.isLocked("leaked"));
		assertThat(this.registry.get(MicrometerLockClientListener.LOST).tag("reason", "max-hold").counter().count())
			.isEqualTo(1);
		assertThat(output).contains("Lock 'leaked' (job) was held for")
			.contains("longer than its maximum hold (PT0.5S)");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(hold::release)
			.withMessageContaining("maximum hold");
		this.client.acquire("leaked", Duration.ZERO, null).release();
	}

	@Test
	void theWarningNamesTheCodeThatTookTheLock(CapturedOutput output) throws Exception {
		LockHold hold = LockCaller.call("ReportJob.run",
				() -> this.client.acquire("report", "named", Duration.ZERO, null));
		await().atMost(Duration.ofSeconds(5)).until(() -> !hold.isValid());
		assertThat(output).contains("Lock 'named' (report, taken by ReportJob.run) was held for");
	}

	@Test
	void aHoldWithinTheMaximumIsRenewed() throws Exception {
		LockHold hold = this.client.acquire("short", Duration.ZERO, null);
		await().pollDelay(Duration.ofMillis(350)).atMost(Duration.ofSeconds(1)).until(hold::isValid);
		hold.release();
		assertThat(this.registry.find(MicrometerLockClientListener.LOST).counter()).isNull();
	}

	@Test
	void aMaximumHoldMustBePositive() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> LockClientSettings.defaults().withMaxHold(Duration.ZERO))
			.withMessageContaining("maxHold");
	}

}
