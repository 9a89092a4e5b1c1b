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
package dev.distlock.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A release of a key whose granting request got no answer is sent once more after a "not
 * the owner" answer, so that it runs after that request even when the two travel on
 * different connections; other releases are sent once.
 *
 * @author distlock
 */
class UnansweredWritesTests {

	private final UnansweredWrites unanswered = new UnansweredWrites();

	private final List<Boolean> sent = new CopyOnWriteArrayList<>();

	@Test
	void aReleaseAfterAnUnansweredAcquireIsSentAgainWhenItFindsTheKeyNotOurs() {
		this.unanswered.watch("order:1", CompletableFuture.failedFuture(new TimeoutException("no answer")));
		assertThat(this.unanswered.release("order:1", answers(false, true)).join()).isTrue();
		assertThat(this.sent).containsExactly(false, true);
	}

	@Test
	void theKeyIsForgottenOnceAReleaseOfItWasAnswered() {
		this.unanswered.watch("order:1", CompletableFuture.failedFuture(new TimeoutException("no answer")));
		assertThat(this.unanswered.release("order:1", answers(true)).join()).isTrue();
		assertThat(this.unanswered.release("order:1", answers(false)).join()).isFalse();
		assertThat(this.sent).containsExactly(true, false);
	}

	@Test
	void aReleaseAfterAnsweredRequestsIsSentOnce() {
		this.unanswered.watch("order:1", CompletableFuture.completedFuture("granted"));
		this.unanswered.watch("order:2", CompletableFuture.failedFuture(new TimeoutException("no answer")));
		assertThat(this.unanswered.release("order:1", answers(false)).join()).isFalse();
		assertThat(this.sent).containsExactly(false);
	}

	private Supplier<CompletableFuture<Boolean>> answers(Boolean... answers) {
		List<Boolean> left = new CopyOnWriteArrayList<>(answers);
		return () -> {
			Boolean answer = left.remove(0);
			this.sent.add(answer);
			return CompletableFuture.completedFuture(answer);
		};
	}

}
