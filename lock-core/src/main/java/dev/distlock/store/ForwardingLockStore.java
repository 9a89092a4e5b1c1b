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
package dev.distlock.store;

import dev.distlock.LossReason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A {@link LockStore} that forwards every operation to another store: the base of a
 * decorator, which overrides only what it changes, as ShedLock's
 * {@code KeepAliveLockProvider} wraps a provider.
 * <p>
 * It offers exactly the extensions of the store it wraps, every one of them:
 * {@link #extension(Class)} returns this store for each extension the wrapped store has,
 * and every extension method forwards to the wrapped store's extension. That includes the
 * extensions that only describe a limit, such as {@link SessionLeaseExtension}: a
 * decorator over a store whose locks live as long as its session keeps the client's and
 * the startup's refusal of a fixed lease. A decorator that cannot honour an extension
 * overrides {@link #extension(Class)} to return {@code null} for it.
 *
 * @author distlock
 * @since 0.1.0
 */
public class ForwardingLockStore implements LockStore, ReadLockExtension, FairGrantWakeUpExtension, WakeOneExtension,
		HandOverExtension, LocalHandOverExtension, SeveralKeysExtension, InspectionExtension, SessionLeaseExtension {

	private final LockStore delegate;

	/**
	 * Create a store that forwards to {@code delegate}.
	 * @param delegate the store to forward to; closed with this one
	 */
	public ForwardingLockStore(LockStore delegate) {
		Assert.notNull(delegate, "'delegate' must not be null");
		this.delegate = delegate;
	}

	/**
	 * Return the store this one forwards to.
	 * @return the wrapped store
	 */
	protected LockStore delegate() {
		return this.delegate;
	}

	@Override
	public <E extends LockStoreExtension> @Nullable E extension(Class<E> type) {
		return (this.delegate.extension(type) != null && type.isInstance(this)) ? type.cast(this) : null;
	}

	/**
	 * Return the wrapped store's {@code type} extension.
	 * @param <E> the extension's type
	 * @param type the extension's interface
	 * @return the extension
	 * @throws UnsupportedOperationException if the wrapped store has none
	 */
	protected <E extends LockStoreExtension> E delegateExtension(Class<E> type) {
		E extension = this.delegate.extension(type);
		if (extension == null) {
			throw new UnsupportedOperationException(
					"The lock store " + this.delegate.getClass().getName() + " does not implement " + type.getName());
		}
		return extension;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return this.delegate.tryAcquire(key, token, lease);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return this.delegate.release(key, token);
	}

	@Override
	public CompletionStage<Boolean> expireAfter(String key, String token, Duration remaining) {
		return this.delegate.expireAfter(key, token, remaining);
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.delegate.renew(renewals, lease);
	}

	@Override
	public Object renewalGroup(String key) {
		return this.delegate.renewalGroup(key);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return this.delegate.isOwner(key, token);
	}

	@Override
	public Subscription onRelease(String key, Runnable listener) {
		return this.delegate.onRelease(key, listener);
	}

	@Override
	public CompletionStage<Attempt> tryAcquireRead(String key, String token, Duration lease) {
		return delegateExtension(ReadLockExtension.class).tryAcquireRead(key, token, lease);
	}

	@Override
	public HeldLockOperations readGrants() {
		return delegateExtension(ReadLockExtension.class).readGrants();
	}

	@Override
	public CompletionStage<Attempt> tryAcquireFair(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return delegateExtension(FairQueueExtension.class).tryAcquireFair(key, token, lease, grantTimeout);
	}

	@Override
	public CompletionStage<Void> leaveFairQueue(String key, String token) {
		return delegateExtension(FairQueueExtension.class).leaveFairQueue(key, token);
	}

	@Override
	public Subscription onFairWakeUp(String key, String token, Runnable listener) {
		return delegateExtension(FairQueueExtension.class).onFairWakeUp(key, token, listener);
	}

	@Override
	public CompletionStage<ClockedAttempt> tryAcquireFairClocked(String key, String token, Duration lease,
			@Nullable Duration grantTimeout) {
		return delegateExtension(FairGrantWakeUpExtension.class).tryAcquireFairClocked(key, token, lease, grantTimeout);
	}

	@Override
	public Subscription onFairGrant(String key, String token, Consumer<@Nullable FairGrant> listener) {
		return delegateExtension(FairGrantWakeUpExtension.class).onFairGrant(key, token, listener);
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease, String waiter,
			Duration waiterTtl) {
		return delegateExtension(WakeOneExtension.class).tryAcquire(key, token, lease, waiter, waiterTtl);
	}

	@Override
	public Subscription onRelease(String key, String waiter, Runnable listener) {
		return delegateExtension(WakeOneExtension.class).onRelease(key, waiter, listener);
	}

	@Override
	public CompletionStage<Void> leave(String key, String waiter) {
		return delegateExtension(WakeOneExtension.class).leave(key, waiter);
	}

	@Override
	public CompletionStage<@Nullable Attempt> handOver(String key, String token, String nextToken, Duration lease) {
		return delegateExtension(HandOverExtension.class).handOver(key, token, nextToken, lease);
	}

	@Override
	public CompletionStage<@Nullable HandOff> handOver(String key, String token, String nextToken, Duration lease,
			String client) {
		return delegateExtension(HandOverExtension.class).handOver(key, token, nextToken, lease, client);
	}

	@Override
	public long fenceRoom() {
		return delegateExtension(LocalHandOverExtension.class).fenceRoom();
	}

	@Override
	public CompletionStage<@Nullable List<Attempt>> tryAcquireAll(List<String> keys, String token, Duration lease) {
		return delegateExtension(SeveralKeysExtension.class).tryAcquireAll(keys, token, lease);
	}

	@Override
	public CompletionStage<KeyState> inspect(String key) {
		return delegateExtension(InspectionExtension.class).inspect(key);
	}

	@Override
	public CompletionStage<@Nullable String> forceRelease(String key) {
		return delegateExtension(InspectionExtension.class).forceRelease(key);
	}

	@Override
	public Duration sessionTimeout() {
		return delegateExtension(SessionLeaseExtension.class).sessionTimeout();
	}

	@Override
	public @Nullable String lossReason(String key, String token) {
		return delegateExtension(SessionLeaseExtension.class).lossReason(key, token);
	}

	@Override
	public @Nullable LossReason lossKind(String key, String token) {
		return delegateExtension(SessionLeaseExtension.class).lossKind(key, token);
	}

	@Override
	public Duration longestLease() {
		return delegateExtension(SessionLeaseExtension.class).longestLease();
	}

	@Override
	public Subscription onSessionInterrupted(Runnable listener) {
		return delegateExtension(SessionLeaseExtension.class).onSessionInterrupted(listener);
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
