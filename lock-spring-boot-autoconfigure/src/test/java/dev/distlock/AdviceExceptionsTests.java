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

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the exceptions of a locked method that completed although its release went
 * wrong: their message escapes the key, and they keep the method's result.
 *
 * @author distlock
 */
class AdviceExceptionsTests {

	private static final String KEY = "order:1\r\nINFO forged line\u001b[31m";

	@Test
	void escapeTheKeyInTheirMessageAndKeepItAsItIs() {
		List<DistributedLockException> thrown = List.of(lostAfterCompletion(true), releaseFailed(false));
		assertThat(thrown).allSatisfy((ex) -> {
			assertThat(ex.getMessage()).doesNotContain("\r", "\n", "\u001b")
				.contains("order:1\\r\\nINFO forged line\\u001b[31m");
			assertThat(ex.getKey()).isEqualTo(KEY);
		});
	}

	@Test
	void keepTheResultAndSayWhetherTheTransactionCommitted() {
		assertThat(lostAfterCompletion(true).getResult()).isEqualTo("result");
		assertThat(lostAfterCompletion(true).isTransactionCommitted()).isTrue();
		assertThat(lostAfterCompletion(true).getMessage()).contains("returned normally and its transaction committed")
			.contains("but then: ");
		assertThat(releaseFailed(false).getResult()).isEqualTo("result");
		assertThat(releaseFailed(false).isTransactionCommitted()).isFalse();
		assertThat(releaseFailed(false).getMessage())
			.contains("returned normally (no transaction that began inside the lock committed)")
			.endsWith("; the lock expires with its lease");
	}

	private static LockLostAfterCompletionException lostAfterCompletion(boolean committed) {
		return new LockLostAfterCompletionException(new LockLostException(KEY, "expired"), "result", committed);
	}

	private static LockReleaseFailedException releaseFailed(boolean committed) {
		return new LockReleaseFailedException(
				new LockBackendException(KEY, "release", new IllegalStateException("down")), "result", committed);
	}

}
