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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockReplicationException}.
 *
 * @author distlock
 */
class LockReplicationExceptionTests {

	@Test
	void escapesTheKeyInItsMessageAndKeepsItAsItIs() {
		String key = "order:1\r\nINFO forged line\u001b[31m";
		LockReplicationException ex = new LockReplicationException(key, 0, 1, Duration.ofMillis(500));
		assertThat(ex.getMessage()).doesNotContain("\r", "\n", "\u001b")
			.contains("order:1\\r\\nINFO forged line\\u001b[31m")
			.contains("only 0 of the 1 required replica(s)");
		assertThat(ex.getKey()).isEqualTo(key);
		assertThat(ex).isInstanceOf(LockBackendException.class);
	}

}
