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

import java.util.List;
import java.util.function.Supplier;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import dev.distlock.LockBackendException;
import dev.distlock.LogSafe;
import dev.distlock.annotation.OnBusy;
import dev.distlock.aop.LockFailure.Kind;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Decides what a {@code @DistributedLock} call answers when its lock could not be had,
 * the same way for synchronous, future and reactive methods: a busy lock goes to the
 * method's fallback, else is skipped with {@code onBusy = SKIP}, else goes to the
 * application's {@link LockFailureHandler}; an unreachable Redis goes to the handler.
 * What none of them takes is thrown. The answer has the method's declared return type.
 *
 * @author distlock
 */
final class LockFailurePolicy {

	private static final Log logger = LogFactory.getLog(LockFailurePolicy.class);

	private final Supplier<@Nullable LockFailureHandler> handler;

	LockFailurePolicy(Supplier<@Nullable LockFailureHandler> handler) {
		this.handler = handler;
	}

	/**
	 * Answer a call that did not get its lock.
	 * @param operation the locked method
	 * @param invocation the call
	 * @param target the bean
	 * @param keys the keys the call asked for
	 * @param failure why the lock could not be had
	 * @return the call's result
	 * @throws Throwable {@code failure}, or what the fallback or handler threw
	 */
	@Nullable Object answer(LockOperation operation, MethodInvocation invocation, Object target, List<String> keys,
			DistributedLockException failure) throws Throwable {
		boolean busy = failure instanceof LockAcquisitionException acquisition
				&& !(acquisition.getCause() instanceof InterruptedException);
		FallbackMethod fallback = operation.fallback();
		if (busy && fallback != null) {
			return fallback.invoke(target, invocation.getArguments(), (LockAcquisitionException) failure);
		}
		if (busy && operation.onBusy() == OnBusy.SKIP) {
			if (logger.isDebugEnabled()) {
				logger.debug("Skipped " + operation.method() + ": " + LogSafe.escape(failure.getMessage()));
			}
			return SkippedCall.emptyResult(operation.method(), operation.lockedReturn());
		}
		LockFailureHandler handler = this.handler.get();
		if (handler != null && (busy || failure instanceof LockBackendException)) {
			return handler.handle(new LockFailure(operation.method(), target, invocation.getArguments(), keys,
					busy ? Kind.BUSY : Kind.BACKEND_UNAVAILABLE, failure));
		}
		throw failure;
	}

}
