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

package dev.distlock.sample.voucher;

import java.time.Duration;

import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LockLostException;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link VoucherProblems} maps the lock exceptions of an order, without a server:
 * {@code Retry-After} arithmetic and the cases that are not "busy".
 *
 * @author distlock
 */
class VoucherProblemsTests {

	private final VoucherProblems problems = new VoucherProblems();

	@Test
	void retryAfterIsTheHoldersRemainingLeaseRoundedUpToWholeSeconds() {
		assertThat(retryAfter(Duration.ofMillis(2300))).isEqualTo("3");
		assertThat(retryAfter(Duration.ofSeconds(5))).isEqualTo("5");
		assertThat(retryAfter(Duration.ofSeconds(29).plusNanos(1))).isEqualTo("30");
	}

	@Test
	void retryAfterIsAtLeastOneSecond() {
		assertThat(retryAfter(Duration.ofMillis(1))).isEqualTo("1");
		assertThat(retryAfter(Duration.ZERO)).isEqualTo("1");
	}

	@Test
	void retryAfterIsOneSecondWhenTheHoldersLeaseIsUnknown() {
		ResponseEntity<Object> busy = this.problems.busy(LockAcquisitionException.busy("order:1", Duration.ZERO, null));
		assertThat(busy.getStatusCode().value()).isEqualTo(429);
		assertThat(busy.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
	}

	@Test
	void anInterruptedWaitIsNotBusyButNothingOrdered() {
		ResponseEntity<Object> interrupted = this.problems
			.busy(new LockAcquisitionException("order:1", Duration.ofSeconds(1), new InterruptedException()));
		assertThat(interrupted.getStatusCode().value()).isEqualTo(503);
		assertThat(interrupted.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isNull();
	}

	@Test
	void redisFailuresAndLossesBeforeTheCommitAreNothingOrdered() {
		assertThat(this.problems
			.lockUnavailable(new LockBackendException("order:1", "acquire", new IllegalStateException("down")))
			.getStatusCode()
			.value()).isEqualTo(503);
		assertThat(this.problems.lockUnavailable(new LockLostException("order:1", "expired")).getStatusCode().value())
			.isEqualTo(503);
	}

	private String retryAfter(Duration holderLeaseRemaining) {
		ResponseEntity<Object> busy = this.problems
			.busy(LockAcquisitionException.busy("order:1", Duration.ZERO, holderLeaseRemaining));
		assertThat(busy.getStatusCode().value()).isEqualTo(429);
		return busy.getHeaders().getFirst(HttpHeaders.RETRY_AFTER);
	}

}
