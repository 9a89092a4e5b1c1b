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
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The client's side of one {@link LockTracker}: when the acquisition started, and that
 * each event is reported once, on the client's listener thread ({@link ListenerEvents}),
 * never on the thread that saw the event. A listener that throws is logged and ignored,
 * so observing a lock never changes its outcome.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Tracking {

	private static final Log logger = LogFactory.getLog(Tracking.class);

	static final Tracking NONE = new Tracking(LockClient.UNNAMED, null, LockTracker.NONE, Runnable::run, 0);

	final String name;

	/** The code that asked for the lock ({@link LockCaller}), if it named itself. */
	final @Nullable String caller;

	private final LockTracker tracker;

	private final Executor events;

	private final long startedAtNanos;

	private final AtomicBoolean outcome = new AtomicBoolean();

	private final AtomicBoolean lost = new AtomicBoolean();

	private final AtomicBoolean released = new AtomicBoolean();

	private Tracking(String name, @Nullable String caller, LockTracker tracker, Executor events, long startedAtNanos) {
		this.name = name;
		this.caller = caller;
		this.tracker = tracker;
		this.events = events;
		this.startedAtNanos = startedAtNanos;
	}

	static Tracking start(LockClientListener listener, Executor events, String name, String key) {
		long startedAt = System.nanoTime();
		String caller = LockCaller.current();
		if (listener == LockClientListener.NONE) {
			return new Tracking(name, caller, LockTracker.NONE, events, startedAt);
		}
		LockTracker tracker;
		try {
			tracker = listener.acquisitionStarted(name, key);
		}
		catch (RuntimeException ex) {
			logger.warn("LockClientListener failed when lock '" + LogSafe.escape(key) + "' was asked for", ex);
			tracker = LockTracker.NONE;
		}
		return new Tracking(name, caller, tracker, events, startedAt);
	}

	void acquired(long fencingToken) {
		if (this.outcome.compareAndSet(false, true)) {
			Duration waited = Duration.ofNanos(System.nanoTime() - this.startedAtNanos);
			call(() -> this.tracker.acquired(waited, fencingToken));
		}
	}

	void notAcquired(AcquireOutcome outcome, @Nullable Throwable failure) {
		if (this.outcome.compareAndSet(false, true)) {
			Duration waited = Duration.ofNanos(System.nanoTime() - this.startedAtNanos);
			call(() -> this.tracker.notAcquired(outcome, waited, failure));
		}
	}

	void lost(LossReason reason) {
		if (this.lost.compareAndSet(false, true)) {
			call(() -> this.tracker.lost(reason));
		}
	}

	void released(@Nullable Throwable failure) {
		if (this.released.compareAndSet(false, true)) {
			call(() -> this.tracker.released(failure));
		}
	}

	private void call(Runnable event) {
		if (this.tracker == LockTracker.NONE) {
			return;
		}
		this.events.execute(() -> {
			try {
				event.run();
			}
			catch (RuntimeException ex) {
				logger.warn("LockTracker of a lock named '" + LogSafe.escape(this.name) + "' failed", ex);
			}
		});
	}

}
