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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The pub/sub side of waiting: one listener container per client, one subscription per
 * channel that has waiters, shared by them and dropped when the last one leaves.
 * Subscribing waits (bounded) for Redis to confirm, so a waiter that re-checks the lock
 * after subscribing cannot miss the release that follows.
 *
 * @author distlock
 * @since 0.1.0
 */
final class ReleaseSubscriptions implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ReleaseSubscriptions.class);

	private final RedisMessageListenerContainer container;

	private final Duration confirmationTimeout;

	private final Map<String, ChannelWaiters> channels = new ConcurrentHashMap<>();

	private volatile boolean closed;

	ReleaseSubscriptions(RedisConnectionFactory connectionFactory, Duration confirmationTimeout, String name) {
		this.confirmationTimeout = confirmationTimeout;
		this.container = new RedisMessageListenerContainer();
		this.container.setConnectionFactory(connectionFactory);
		this.container.setTaskExecutor(new SyncTaskExecutor());
		this.container.setBeanName(name);
		this.container.afterPropertiesSet();
		this.container.start();
	}

	/**
	 * Join the waiters of {@code channel}, subscribing first if this is the first one.
	 * @param channel the release channel
	 * @return the waiters of the channel; {@link ChannelWaiters#leave() leave} when done
	 */
	ChannelWaiters join(String channel) {
		ChannelWaiters waiters = this.channels.compute(channel, (name, existing) -> {
			ChannelWaiters joined = (existing != null) ? existing : new ChannelWaiters(name);
			joined.members++;
			return joined;
		});
		waiters.awaitSubscribed();
		return waiters;
	}

	/**
	 * Wake every waiter, for example because the client is closing.
	 */
	@Override
	public void close() {
		this.closed = true;
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
	final class ChannelWaiters implements MessageListener, SubscriptionListener {

		private final ChannelTopic topic;

		private final ReentrantLock lock = new ReentrantLock();

		private final Condition released = this.lock.newCondition();

		private final CountDownLatch subscribed = new CountDownLatch(1);

		/** Guarded by the channel map. */
		private int members;

		private boolean listening;

		private long releases;

		ChannelWaiters(String channel) {
			this.topic = ChannelTopic.of(channel);
		}

		private void awaitSubscribed() {
			synchronized (this) {
				if (!this.listening) {
					this.listening = true;
					try {
						ReleaseSubscriptions.this.container.addMessageListener(this, this.topic);
					}
					catch (RuntimeException ex) {
						logger.debug("Could not subscribe to " + this.topic + "; waiting falls back to polling", ex);
					}
				}
			}
			try {
				if (!this.subscribed.await(ReleaseSubscriptions.this.confirmationTimeout.toNanos(),
						TimeUnit.NANOSECONDS)) {
					logger.debug("Redis did not confirm the subscription to " + this.topic + " in time");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
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
		 * Leave the waiters; the last one to leave unsubscribes.
		 */
		void leave() {
			ReleaseSubscriptions.this.channels.computeIfPresent(this.topic.getTopic(), (name, waiters) -> {
				if (--waiters.members > 0) {
					return waiters;
				}
				if (!ReleaseSubscriptions.this.closed) {
					unsubscribe();
				}
				return null;
			});
		}

		private void unsubscribe() {
			try {
				ReleaseSubscriptions.this.container.removeMessageListener(this, this.topic);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not unsubscribe from " + this.topic, ex);
			}
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

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			this.subscribed.countDown();
		}

	}

}
