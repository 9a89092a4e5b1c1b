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

package dev.distlock.core;

import dev.distlock.LossReason;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

import dev.distlock.LogSafe;

/**
 * The {@link SegmentHold} of a client: a hold on one key with the index of that key among
 * those asked for; every operation is the hold's own.
 *
 * @author distlock
 * @since 0.1.0
 */
final class SegmentCallHold implements SegmentHold {

	private final CallHold hold;

	private final int segment;

	SegmentCallHold(CallHold hold, int segment) {
		this.hold = hold;
		this.segment = segment;
	}

	@Override
	public int segment() {
		return this.segment;
	}

	@Override
	public String key() {
		return this.hold.key();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public boolean isValid() {
		return this.hold.isValid();
	}

	@Override
	public void confirmOwnership() {
		this.hold.confirmOwnership();
	}

	@Override
	public void release() {
		this.hold.release();
	}

	@Override
	public void releaseEmpty() {
		this.hold.markEmptied();
		this.hold.release();
	}

	@Override
	public void release(Duration holdAtLeast) {
		this.hold.release(holdAtLeast);
	}

	@Override
	public CompletionStage<Void> releaseAsync() {
		return this.hold.releaseAsync();
	}

	@Override
	public CompletionStage<Void> releaseAsync(Duration holdAtLeast) {
		return this.hold.releaseAsync(holdAtLeast);
	}

	@Override
	public CompletionStage<LossReason> whenLost() {
		return this.hold.whenLost();
	}

	@Override
	public void close() {
		this.hold.close();
	}

	@Override
	public String toString() {
		return "SegmentHold[" + LogSafe.escape(key()) + ", segment=" + this.segment + ", fencingToken=" + fencingToken()
				+ "]";
	}

}
