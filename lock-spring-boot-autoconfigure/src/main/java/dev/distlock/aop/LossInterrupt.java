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

package dev.distlock.aop;

import java.util.concurrent.CompletableFuture;

import dev.distlock.LockLostException;
import org.jspecify.annotations.Nullable;

/**
 * The {@code INTERRUPT} loss policy for one call of a synchronous
 * {@code @DistributedLock} method: interrupts the thread running it when its lock is
 * lost, only while it runs, and when it ends clears the interrupt it caused and tells
 * whether the lock was lost. An interrupt the thread already had is left alone.
 *
 * @author distlock
 */
final class LossInterrupt {

	private final Thread thread;

	private @Nullable LockLostException loss;

	private boolean interrupted;

	private boolean finished;

	private LossInterrupt(Thread thread) {
		this.thread = thread;
	}

	/**
	 * Interrupt the current thread when {@code lost} completes, until {@link #finish()}.
	 * @param lost the loss of the call's locks
	 * @return the watch
	 */
	static LossInterrupt watch(CompletableFuture<LockLostException> lost) {
		LossInterrupt interrupt = new LossInterrupt(Thread.currentThread());
		lost.thenAccept(interrupt::lost);
		return interrupt;
	}

	private synchronized void lost(LockLostException loss) {
		if (this.finished) {
			return;
		}
		this.loss = loss;
		if (!this.thread.isInterrupted()) {
			this.thread.interrupt();
			this.interrupted = true;
		}
	}

	/**
	 * Stop watching, on the thread that ran the method; clear the interrupt this watch
	 * caused, if any.
	 * @return the loss, or {@code null} if the lock was not lost while the method ran
	 */
	synchronized @Nullable LockLostException finish() {
		this.finished = true;
		if (this.interrupted) {
			Thread.interrupted();
		}
		return this.loss;
	}

	/**
	 * Return what a call that threw {@code failure} ends with: the loss, with the
	 * method's exception suppressed into it, if the lock was lost while it ran.
	 * @param interrupt the watch, or {@code null} under another policy
	 * @param failure the method's exception
	 * @return the exception to throw
	 */
	static Throwable failure(@Nullable LossInterrupt interrupt, Throwable failure) {
		LockLostException loss = (interrupt != null) ? interrupt.finish() : null;
		if (loss == null) {
			return failure;
		}
		loss.addSuppressed(failure);
		return loss;
	}

}
