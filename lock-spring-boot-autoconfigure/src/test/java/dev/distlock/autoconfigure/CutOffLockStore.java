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

package dev.distlock.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;
import dev.distlock.store.SessionLeaseExtension;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * A lock store that one instance of a test reaches through, and that the test can cut
 * off: every request then fails as if the network to the store were down, while the store
 * itself, and the other instances, go on. Owned stores are closed with it; a shared one
 * (the in-memory store of several test instances) is not.
 *
 * @author distlock
 */
class CutOffLockStore extends ForwardingLockStore implements SessionLeaseExtension {

	private final boolean ownsDelegate;

	private volatile boolean cutOff;

	CutOffLockStore(LockStore delegate, boolean ownsDelegate) {
		super(delegate);
		this.ownsDelegate = ownsDelegate;
	}

	/**
	 * Return a post-processor that puts every other {@link LockStore} bean behind a store
	 * that can be cut off.
	 * @return the post-processor
	 */
	static BeanPostProcessor wrapping() {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return (bean instanceof LockStore store && !(bean instanceof CutOffLockStore))
						? new CutOffLockStore(store, true) : bean;
			}

		};
	}

	void cutOff() {
		this.cutOff = true;
	}

	@Override
	public CompletionStage<Attempt> tryAcquire(String key, String token, Duration lease) {
		return this.cutOff ? unreachable() : super.tryAcquire(key, token, lease);
	}

	@Override
	public CompletionStage<Boolean> release(String key, String token) {
		return this.cutOff ? unreachable() : super.release(key, token);
	}

	@Override
	public CompletionStage<List<RenewalOutcome>> renew(List<Renewal> renewals, Duration lease) {
		return this.cutOff ? unreachable() : super.renew(renewals, lease);
	}

	@Override
	public CompletionStage<Boolean> isOwner(String key, String token) {
		return this.cutOff ? unreachable() : super.isOwner(key, token);
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
	public void close() {
		if (this.ownsDelegate) {
			super.close();
		}
	}

	private static <T> CompletionStage<T> unreachable() {
		return CompletableFuture.failedFuture(new IOException("cut off from the lock store"));
	}

}
