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

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The pub/sub side of waiting: one listener container per client, one subscription per
 * channel that has waiters, shared by them and dropped when the last one leaves. Joining
 * returns once Redis has confirmed the subscription, so a waiter that re-checks the lock
 * after joining cannot miss the release that follows. A permanent subscription to the
 * client's own channel, made on the first join, keeps the pub/sub connection open between
 * waits.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ReleaseSubscriptions implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ReleaseSubscriptions.class);

	private final RedisMessageListenerContainer container;

	private final ChannelTopic clientTopic;

	private final Map<String, ChannelWaiters> channels = new ConcurrentHashMap<>();

	private final ReentrantLock connecting = new ReentrantLock();

	private volatile boolean connected;

	private final long lingerNanos;

	private final ScheduledExecutorService sweeper;

	private volatile boolean closed;

	/**
	 * Create the subscriptions of one client.
	 * @param connectionFactory the factory for the pub/sub connection
	 * @param subscriptionTimeout how long to wait for Redis to confirm a subscription
	 * @param linger how long a channel stays subscribed after its last waiter left
	 * @param name the name of the listener container and the prefix of its thread
	 * @param clientChannel the client's own channel, subscribed for as long as it lives
	 */
	ReleaseSubscriptions(RedisConnectionFactory connectionFactory, Duration subscriptionTimeout, Duration linger,
			String name, String clientChannel) {
		this.clientTopic = ChannelTopic.of(clientChannel);
		this.lingerNanos = linger.toNanos();
		this.sweeper = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, name + "-subscriptions");
			thread.setDaemon(true);
			return thread;
		});
		this.sweeper.scheduleWithFixedDelay(this::unsubscribeIdleChannels, this.lingerNanos, this.lingerNanos,
				TimeUnit.NANOSECONDS);
		this.container = new RedisMessageListenerContainer();
		this.container.setConnectionFactory(connectionFactory);
		this.container.setTaskExecutor(new SyncTaskExecutor());
		this.container.setMaxSubscriptionRegistrationWaitingTime(subscriptionTimeout.toMillis());
		this.container.setBeanName(name);
		this.container.afterPropertiesSet();
		this.container.start();
	}

	/**
	 * Join the waiters of {@code channel}, subscribing first if this is the first one. If
	 * Redis cannot confirm the subscription, waiters fall back to re-checking the lock
	 * when the holder's lease would end.
	 * @param channel the release channel
	 * @return the waiters of the channel; {@link ChannelWaiters#leave() leave} when done
	 */
	ChannelWaiters join(String channel) {
		connect();
		ChannelWaiters waiters = this.channels.compute(channel, (name, existing) -> {
			ChannelWaiters joined = (existing != null) ? existing : new ChannelWaiters(name);
			joined.members++;
			return joined;
		});
		waiters.subscribe();
		return waiters;
	}

	private void connect() {
		if (this.connected) {
			return;
		}
		this.connecting.lock();
		try {
			if (!this.connected) {
				this.container.addMessageListener((message, pattern) -> {
				}, this.clientTopic);
				this.connected = true;
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not open the pub/sub connection; waiting falls back to polling", ex);
		}
		finally {
			this.connecting.unlock();
		}
	}

	/**
	 * Unsubscribe from every channel whose last waiter left more than the linger ago.
	 * Called by the sweeper; never throws.
	 */
	void unsubscribeIdleChannels() {
		long now = System.nanoTime();
		for (ChannelWaiters waiters : this.channels.values()) {
			if (waiters.idleLongerThanLinger(now)) {
				this.channels.computeIfPresent(waiters.topic.getTopic(),
						(name, current) -> (current == waiters && current.idleLongerThanLinger(now))
								? current.unsubscribe() : current);
			}
		}
	}

	/**
	 * Wake every waiter, for example because the client is closing.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.sweeper.shutdownNow();
		this.channels.values().forEach(ChannelWaiters::wakeAll);
		this.container.stop();
		try {
			this.container.destroy();
		}
		catch (Exception ex) {
			logger.debug("Could not destroy the release listener container", ex);
		}
	}

	/**
	 * The waiters of one release channel.
	 */
	final class ChannelWaiters implements MessageListener {

		private final ChannelTopic topic;

		private final ReentrantLock lock = new ReentrantLock();

		private final Condition released = this.lock.newCondition();

		private final ReentrantLock subscribing = new ReentrantLock();

		/** Guarded by the channel map. */
		private int members;

		/** When the last member left; guarded by the channel map. */
		private long idleSince;

		private volatile boolean subscribed;

		private long releases;

		ChannelWaiters(String channel) {
			this.topic = ChannelTopic.of(channel);
		}

		private void subscribe() {
			this.subscribing.lock();
			try {
				if (!this.subscribed) {
					ReleaseSubscriptions.this.container.addMessageListener(this, this.topic);
					this.subscribed = true;
				}
			}
			catch (RuntimeException ex) {
				logger.debug("Could not subscribe to " + this.topic + "; waiting falls back to polling", ex);
			}
			finally {
				this.subscribing.unlock();
			}
		}

		/**
		 * Return the number of releases seen so far; pass it to {@link #awaitRelease}
		 * after re-checking the lock.
		 * @return the release count
		 */
		long releaseCount() {
			this.lock.lock();
			try {
				return this.releases;
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Wait until a release after {@code seen} is published, or the time is up.
		 * @param seen the release count read before the last attempt
		 * @param nanos the most to wait
		 * @throws InterruptedException if interrupted
		 */
		void awaitRelease(long seen, long nanos) throws InterruptedException {
			long remaining = nanos;
			this.lock.lockInterruptibly();
			try {
				while (this.releases == seen && remaining > 0 && !ReleaseSubscriptions.this.closed) {
					remaining = this.released.awaitNanos(remaining);
				}
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Leave the waiters. The channel stays subscribed until it has been idle for the
		 * linger.
		 */
		void leave() {
			ReleaseSubscriptions.this.channels.computeIfPresent(this.topic.getTopic(), (name, waiters) -> {
				if (--waiters.members == 0) {
					waiters.idleSince = System.nanoTime();
				}
				return waiters;
			});
		}

		private boolean idleLongerThanLinger(long now) {
			return this.members == 0 && now - this.idleSince >= ReleaseSubscriptions.this.lingerNanos;
		}

		/**
		 * Unsubscribe; the caller removes this channel from the map.
		 * @return {@code null}, for the map
		 */
		private @Nullable ChannelWaiters unsubscribe() {
			try {
				if (this.subscribed) {
					ReleaseSubscriptions.this.container.removeMessageListener(this, this.topic);
				}
			}
			catch (RuntimeException ex) {
				logger.debug("Could not unsubscribe from " + this.topic, ex);
			}
			return null;
		}

		@Override
		public void onMessage(Message message, byte[] pattern) {
			wakeAll();
		}

		private void wakeAll() {
			this.lock.lock();
			try {
				this.releases++;
				this.released.signalAll();
			}
			finally {
				this.lock.unlock();
			}
		}

	}

}
