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

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.distlock.store.LockStore.Subscription;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.PatternTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Release notifications over classic pub/sub: one pattern subscription for every release
 * channel of the key prefix, made in the background when the first caller waits, and kept
 * for the life of the store. Waiting and leaving never talk to Redis. When Redis confirms
 * the pattern subscription, the first time or again after a reconnect, every waiter is
 * woken to re-check, since releases published meanwhile were not heard.
 * <p>
 * Every client hears every release of the prefix; for lock traffic that is cheap, and it
 * spares a SUBSCRIBE and UNSUBSCRIBE round trip per wait.
 *
 * @author distlock
 * @since 0.1.0
 */
final class PatternReleaseNotifications implements ReleaseNotifications, MessageListener, SubscriptionListener {

	/**
	 * The command a release publishes with.
	 */
	static final String PUBLISH = "publish";

	private static final Log logger = LogFactory.getLog(PatternReleaseNotifications.class);

	private final RedisMessageListenerContainer container;

	private final PatternTopic topic;

	private final String name;

	private final ChannelListeners listeners = new ChannelListeners();

	private final AtomicBoolean started = new AtomicBoolean();

	/**
	 * Create the notifications of one store.
	 * @param connectionFactory the factory for the pub/sub connection
	 * @param channelPattern the pattern matching every release channel
	 * @param name the name of the listener container and the prefix of its threads
	 */
	PatternReleaseNotifications(RedisConnectionFactory connectionFactory, String channelPattern, String name) {
		this.topic = PatternTopic.of(channelPattern);
		this.name = name;
		SimpleAsyncTaskExecutor subscriber = new SimpleAsyncTaskExecutor(name + "-pubsub-");
		subscriber.setDaemon(true);
		this.container = new RedisMessageListenerContainer();
		this.container.setConnectionFactory(connectionFactory);
		// Messages are dispatched on the thread that received them: the listener only
		// signals waiters. A blocking (Jedis) subscription gets a thread of its own.
		this.container.setTaskExecutor(new SyncTaskExecutor());
		this.container.setSubscriptionExecutor(subscriber);
		this.container.setBeanName(name);
	}

	@Override
	public Subscription subscribe(String channel, @Nullable String waiter, Consumer<@Nullable String> action) {
		ChannelListeners.Listener listener = new ChannelListeners.Listener(waiter, action);
		this.listeners.add(channel, listener);
		if (this.started.compareAndSet(false, true)) {
			Thread subscriber = new Thread(this::listen, this.name + "-subscribe");
			subscriber.setDaemon(true);
			subscriber.start();
		}
		return () -> this.listeners.remove(channel, listener);
	}

	private void listen() {
		try {
			this.container.afterPropertiesSet();
			this.container.start();
			this.container.addMessageListener(this, this.topic);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not subscribe to " + this.topic + " yet; waiters re-check on a timer meanwhile", ex);
		}
	}

	@Override
	public String publishCommand() {
		return PUBLISH;
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		this.listeners.wake(new String(message.getChannel(), StandardCharsets.UTF_8),
				new String(message.getBody(), StandardCharsets.UTF_8));
	}

	@Override
	public void onPatternSubscribed(byte[] pattern, long count) {
		this.listeners.wakeAll();
	}

	@Override
	public void close() {
		if (!this.started.get()) {
			return;
		}
		try {
			this.container.destroy();
		}
		catch (Exception ex) {
			logger.debug("Could not stop the release listener container", ex);
		}
	}

}
