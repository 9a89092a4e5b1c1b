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

package dev.distlock;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LogSafe}.
 *
 * @author distlock
 */
class LogSafeTests {

	@Test
	void escapesLineBreaksSoAKeyCannotForgeALogLine() {
		assertThat(LogSafe.escape("order:1\r\n2026-01-01 WARN forged"))
			.isEqualTo("order:1\\r\\n2026-01-01 WARN forged");
	}

	@Test
	void escapesOtherControlCharactersAndUnicodeLineSeparators() {
		assertThat(LogSafe.escape("a\tb\u001b[31mc\u2028d\u0000")).isEqualTo("a\\tb\\u001b[31mc\\u2028d\\u0000");
	}

	@Test
	void keepsOrdinaryTextAsItIs() {
		String key = "order:42/ünïcödé\uD83D\uDE00";
		assertThat(LogSafe.escape(key)).isSameAs(key);
		assertThat(LogSafe.escape(null)).isEqualTo("null");
	}

	@Test
	void theLockExceptionsEscapeTheKeyInTheirMessageAndKeepItAsItIs() {
		String key = "order:1\r\nINFO forged line\u001b[31m";
		List<DistributedLockException> thrown = List.of(new LockLostException(key, "expired"),
				new LockBackendException(key, "acquire", new IllegalStateException("down")),
				new LockAcquisitionException(key, Duration.ofMillis(5)),
				new LockAcquisitionException(key, Duration.ofMillis(5), new InterruptedException()),
				LockAcquisitionException.busy(key, Duration.ofMillis(5), Duration.ofSeconds(1)));
		assertThat(thrown).allSatisfy((ex) -> {
			assertThat(ex.getMessage()).doesNotContain("\r", "\n", "\u001b")
				.contains("order:1\\r\\nINFO forged line\\u001b[31m");
			assertThat(ex.getKey()).isEqualTo(key);
		});
	}

}
