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
import dev.distlock.store.BlockingCaller;
import dev.distlock.store.support.Stages;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LogSafe;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A {@link LockHold} of a {@link DefaultLockClient}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class CallHold implements LockHold {

	private final Locks locks;

	private final Lease lease;

	private final AtomicBoolean released = new AtomicBoolean();

	CallHold(Locks locks, Lease lease) {
		this.locks = locks;
		this.lease = lease;
	}

	@Override
	public String key() {
		return this.lease.key();
	}

	@Override
	public long fencingToken() {
		return this.lease.fencingToken;
	}

	@Override
	public boolean isValid() {
		return !this.released.get() && !this.lease.isEnded() && this.lease.lossReason() == null;
	}

	@Override
	public void confirmOwnership() {
		requireNotReleased();
		this.locks.join(this.locks.releases.confirmOwnership(this.lease));
	}

	/**
	 * Mark the key's local entry as found empty, before releasing a segment
	 * ({@link SegmentHold#releaseEmpty()}).
	 */
	void markEmptied() {
		this.lease.entry.emptied = true;
	}

	@Override
	public void release() {
		end(null);
	}

	@Override
	public void release(Duration holdAtLeast) {
		Assert.notNull(holdAtLeast, "'holdAtLeast' must not be null");
		end(holdAtLeast);
	}

	private void end(@Nullable Duration holdAtLeast) {
		if (!this.released.compareAndSet(false, true)) {
			throw new IllegalStateException("Lock '" + LogSafe.escape(key()) + "' was already released by this hold");
		}
		this.locks.join(BlockingCaller.run(() -> this.locks.releases.release(this.lease, holdAtLeast)));
	}

	@Override
	public CompletionStage<Void> releaseAsync() {
		return endAsync(null);
	}

	@Override
	public CompletionStage<Void> releaseAsync(Duration holdAtLeast) {
		Assert.notNull(holdAtLeast, "'holdAtLeast' must not be null");
		return endAsync(holdAtLeast);
	}

	private CompletionStage<Void> endAsync(@Nullable Duration holdAtLeast) {
		if (!this.released.compareAndSet(false, true)) {
			return CompletableFuture.failedFuture(new IllegalStateException(
					"Lock '" + LogSafe.escape(key()) + "' was already released by this hold"));
		}
		CompletableFuture<Void> released = new CompletableFuture<>();
		this.locks.releases.release(this.lease, holdAtLeast).whenCompleteAsync((done, failure) -> {
			if (failure != null) {
				released.completeExceptionally(Stages.unwrap(failure));
			}
			else {
				released.complete(null);
			}
		}, this.locks.engine.callbacks());
		return released;
	}

	@Override
	public CompletionStage<LossReason> whenLost() {
		return this.lease.whenLost(this.locks.engine.callbacks());
	}

	@Override
	public void close() {
		if (!this.released.get()) {
			release();
		}
	}

	private void requireNotReleased() {
		if (this.released.get()) {
			throw new IllegalStateException("Lock '" + LogSafe.escape(key()) + "' was already released by this hold");
		}
	}

	@Override
	public String toString() {
		return "LockHold[" + LogSafe.escape(key()) + ", fencingToken=" + fencingToken() + "]";
	}

}
