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

package dev.distlock.leader;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LogSafe;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockHold;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.Assert;

/**
 * The {@link Leadership} of this instance on any {@link LockClient}: while it does not
 * lead, it asks for the leader lock ({@link Leadership#key(String) leader:&lt;name&gt;},
 * watchdog lease, no wait) once per retry interval, on a timer, so no thread waits in
 * between; once granted, the client's watchdog renews the lock, and the term ends when
 * the lock is found lost, on {@link #yieldLeadership()}, or at {@link #stop()}. Every
 * change of state, and every event, happens on one thread of its own
 * ({@code distlock-leader-<name>}), never on a thread of the lock client. It campaigns
 * from {@link #start()}, once the application context is refreshed, and at
 * {@link #stop()} publishes the revocation, then releases the lock.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LeaderCampaign implements Leadership, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(LeaderCampaign.class);

	/**
	 * The name of the leader lock in metrics and traces.
	 */
	static final String LOCK_NAME = "leader";

	/**
	 * How long after its grant a new leader takes office: room for a former leader, whose
	 * lease ran out on its side a drift margin before the store freed the lock, to
	 * publish its revocation first on a busy machine.
	 */
	static final Duration OFFICE_DELAY = Duration.ofMillis(100);

	private final LockClient client;

	private final String name;

	private final String key;

	private final Duration retryInterval;

	private final ApplicationEventPublisher events;

	private final Object lifecycleMonitor = new Object();

	private volatile @Nullable ScheduledExecutorService scheduler;

	private volatile @Nullable Thread schedulerThread;

	/** Whether to campaign; written on the scheduler's thread only. */
	private volatile boolean campaigning;

	/** The current term; written on the scheduler's thread only. */
	private volatile @Nullable LeaderTerm term;

	/** The next attempt; used on the scheduler's thread only. */
	private @Nullable ScheduledFuture<?> nextCampaign;

	/** Whether the last attempt failed otherwise than busy; scheduler's thread only. */
	private boolean failing;

	/**
	 * Create the leadership of this instance.
	 * @param client the lock client holding the leader lock
	 * @param name the leadership name, shared by the instances that compete
	 * @param retryInterval how long a non-leader waits between two attempts
	 * @param events where the granted and revoked events are published
	 */
	public LeaderCampaign(LockClient client, String name, Duration retryInterval, ApplicationEventPublisher events) {
		Assert.notNull(client, "'client' must not be null");
		Assert.hasText(name, "'name' must not be empty");
		Assert.notNull(retryInterval, "'retryInterval' must not be null");
		Assert.isTrue(retryInterval.toMillis() >= 1,
				() -> "'retryInterval' must be at least 1ms, but was " + retryInterval);
		Assert.notNull(events, "'events' must not be null");
		this.client = client;
		this.name = name;
		this.key = Leadership.key(name);
		this.retryInterval = retryInterval;
		this.events = events;
	}

	@Override
	public String name() {
		return this.name;
	}

	/**
	 * Return how long a non-leader waits between two attempts.
	 * @return the retry interval
	 */
	public Duration retryInterval() {
		return this.retryInterval;
	}

	@Override
	public boolean isLeader() {
		LeaderTerm current = this.term;
		return current != null && current.hold().isValid();
	}

	@Override
	public OptionalLong fencingToken() {
		LeaderTerm current = validTerm();
		return (current != null) ? OptionalLong.of(current.fencingToken()) : OptionalLong.empty();
	}

	@Override
	public Optional<LockHold> hold() {
		return Optional.ofNullable(validTerm()).map(LeaderTerm::hold);
	}

	@Override
	public Optional<Instant> leaderSince() {
		return Optional.ofNullable(validTerm()).map(LeaderTerm::since);
	}

	@Override
	public void yieldLeadership() {
		runOnScheduler(() -> {
			LeaderTerm current = this.term;
			if (current != null) {
				revoke(current, LeadershipRevokedEvent.Reason.YIELDED);
				release(current.hold());
				scheduleCampaign(this.retryInterval.multipliedBy(2));
			}
		});
	}

	/**
	 * Start campaigning for the leadership.
	 */
	@Override
	public void start() {
		synchronized (this.lifecycleMonitor) {
			if (this.scheduler != null) {
				return;
			}
			ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, this::newThread);
			scheduler.setRemoveOnCancelPolicy(true);
			this.scheduler = scheduler;
			scheduler.execute(() -> {
				this.campaigning = true;
				campaign();
			});
		}
	}

	/**
	 * Stop campaigning; if this instance leads, publish the revocation, then release the
	 * leader lock.
	 */
	@Override
	public void stop() {
		ScheduledExecutorService stopped;
		synchronized (this.lifecycleMonitor) {
			stopped = this.scheduler;
			if (stopped == null) {
				return;
			}
			runOnScheduler(() -> {
				this.campaigning = false;
				cancelNextCampaign();
				LeaderTerm current = this.term;
				if (current != null) {
					revoke(current, LeadershipRevokedEvent.Reason.STOPPED);
					release(current.hold());
				}
			});
			this.scheduler = null;
		}
		stopped.shutdown();
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

	private @Nullable LeaderTerm validTerm() {
		LeaderTerm current = this.term;
		return (current != null && current.hold().isValid()) ? current : null;
	}

	private void campaign() {
		this.nextCampaign = null;
		if (!this.campaigning || this.term != null) {
			return;
		}
		try {
			this.client.acquireAsync(LOCK_NAME, this.key, Duration.ZERO, null)
				.whenComplete((hold, failure) -> answered(hold, failure));
		}
		catch (RuntimeException ex) {
			campaigned(null, ex);
		}
	}

	/**
	 * Take the answer of an attempt, which arrives on a thread of the lock client, over
	 * to the scheduler's thread; a grant that arrives after the stop is released.
	 */
	private void answered(@Nullable LockHold hold, @Nullable Throwable failure) {
		ScheduledExecutorService current = this.scheduler;
		if (current != null) {
			try {
				current.execute(() -> campaigned(hold, failure));
				return;
			}
			catch (RejectedExecutionException ex) {
				// Stopped meanwhile
			}
		}
		if (hold != null) {
			hold.releaseAsync();
		}
	}

	private void campaigned(@Nullable LockHold hold, @Nullable Throwable failure) {
		if (hold == null) {
			notGranted((failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
					: failure);
			return;
		}
		if (!this.campaigning || this.term != null) {
			release(hold);
			return;
		}
		this.failing = false;
		ScheduledExecutorService current = this.scheduler;
		if (current == null) {
			// Stopped meanwhile
			release(hold);
			return;
		}
		current.schedule(() -> takeOffice(hold), OFFICE_DELAY.toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * Begin the term of a grant made {@link #OFFICE_DELAY} ago, unless the campaign
	 * stopped or the grant's lease ran out meanwhile.
	 */
	private void takeOffice(LockHold hold) {
		if (!this.campaigning || this.term != null) {
			release(hold);
			return;
		}
		if (!hold.isValid()) {
			// Its lease ran out before the term began (a slow store): never announced
			hold.releaseAsync();
			scheduleCampaign(this.retryInterval);
			return;
		}
		ScheduledExecutorService current = this.scheduler;
		if (current == null) {
			// Stopped meanwhile
			release(hold);
			return;
		}
		this.term = new LeaderTerm(hold, Instant.now(), HoldLossWatch.start(hold, current, () -> lost(hold)));
		logger.info(
				"This instance leads '" + LogSafe.escape(this.name) + "' (fencing token " + hold.fencingToken() + ")");
		publish(new LeadershipGrantedEvent(this, hold.fencingToken()));
	}

	private void notGranted(@Nullable Throwable failure) {
		if (!(failure instanceof LockAcquisitionException)) {
			String message = "Could not campaign for the leadership of '" + LogSafe.escape(this.name)
					+ "'; trying again every " + this.retryInterval.toMillis() + " ms";
			if (!this.failing) {
				logger.warn(message, failure);
			}
			else if (logger.isDebugEnabled()) {
				logger.debug(message, failure);
			}
			this.failing = true;
		}
		scheduleCampaign(this.retryInterval);
	}

	private void lost(LockHold hold) {
		LeaderTerm current = this.term;
		if (current == null || current.hold() != hold) {
			return;
		}
		revoke(current, LeadershipRevokedEvent.Reason.LOST);
		// Found lost: the release fails with the loss again, which says nothing new
		hold.releaseAsync();
		scheduleCampaign(this.retryInterval);
	}

	private void revoke(LeaderTerm current, LeadershipRevokedEvent.Reason reason) {
		this.term = null;
		current.watch().cancel();
		logger.info("This instance no longer leads '" + LogSafe.escape(this.name) + "' ("
				+ reason.name().toLowerCase(Locale.ROOT) + ")");
		publish(new LeadershipRevokedEvent(this, current.fencingToken(), reason));
	}

	private void release(LockHold hold) {
		try {
			hold.release();
		}
		catch (IllegalStateException ex) {
			// Already released
		}
		catch (DistributedLockException ex) {
			logger.debug("The leader lock of '" + LogSafe.escape(this.name) + "' was not released cleanly", ex);
		}
	}

	private void publish(ApplicationEvent event) {
		try {
			this.events.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("A listener of " + event.getClass().getSimpleName() + " failed", ex);
		}
	}

	private void scheduleCampaign(Duration delay) {
		cancelNextCampaign();
		ScheduledExecutorService current = this.scheduler;
		if (this.campaigning && current != null) {
			this.nextCampaign = current.schedule(this::campaign, delay.toNanos(), TimeUnit.NANOSECONDS);
		}
	}

	private void cancelNextCampaign() {
		ScheduledFuture<?> next = this.nextCampaign;
		if (next != null) {
			next.cancel(false);
			this.nextCampaign = null;
		}
	}

	/**
	 * Run {@code task} on the scheduler's thread and wait for it, or at once when called
	 * there (from a listener of the events); nothing when stopped.
	 */
	private void runOnScheduler(Runnable task) {
		ScheduledExecutorService current = this.scheduler;
		if (current == null) {
			return;
		}
		if (Thread.currentThread() == this.schedulerThread) {
			task.run();
			return;
		}
		try {
			CompletableFuture.runAsync(task, current).join();
		}
		catch (RejectedExecutionException ex) {
			// Stopped meanwhile
		}
	}

	private Thread newThread(Runnable task) {
		Thread thread = new Thread(task, "distlock-leader-" + this.name);
		thread.setDaemon(true);
		this.schedulerThread = thread;
		return thread;
	}

}
