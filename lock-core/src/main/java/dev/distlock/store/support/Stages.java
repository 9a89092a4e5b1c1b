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

package dev.distlock.store.support;

import dev.distlock.store.LockStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * Helpers for the {@link CompletionStage}s of a {@link LockStore}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class Stages {

	private Stages() {
	}

	/**
	 * Wait for a stage and return its result, rethrowing its failure as it was (not
	 * wrapped in a {@link CompletionException}).
	 * @param <T> the result type
	 * @param stage the stage
	 * @return the result
	 */
	public static <T extends @Nullable Object> T join(CompletionStage<T> stage) {
		try {
			return stage.toCompletableFuture().join();
		}
		catch (CompletionException ex) {
			throw rethrowable(ex);
		}
	}

	/**
	 * Send one request to a store: a request that throws instead of returning a stage (a
	 * store refusing it on the calling thread) gives a stage failed with what it threw.
	 * @param <T> the result type
	 * @param request the request
	 * @return the request's stage
	 */
	public static <T extends @Nullable Object> CompletionStage<T> send(StoreRequest<T> request) {
		try {
			return request.send();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Complete {@code target} as {@code source} completes: with its result, or with its
	 * failure.
	 * @param <T> the result type
	 * @param source the stage to follow
	 * @param target the future to complete
	 */
	public static <T extends @Nullable Object> void forward(CompletionStage<T> source, CompletableFuture<T> target) {
		source.whenComplete((result, failure) -> {
			if (failure != null) {
				target.completeExceptionally(failure);
			}
			else {
				target.complete(result);
			}
		});
	}

	/**
	 * Return the failure a stage completed with, unwrapped from
	 * {@link CompletionException} and {@link ExecutionException}.
	 * @param failure the failure
	 * @return its cause, or itself
	 */
	public static Throwable unwrap(Throwable failure) {
		Throwable current = failure;
		while ((current instanceof CompletionException || current instanceof ExecutionException)
				&& current.getCause() != null) {
			current = current.getCause();
		}
		return current;
	}

	/**
	 * Return a failure to rethrow from a stage's continuation: the failure unwrapped if
	 * unchecked, else wrapped in a {@link CompletionException}.
	 * @param failure the failure
	 * @return what to throw
	 */
	public static RuntimeException asUnchecked(Throwable failure) {
		return rethrowable(failure);
	}

	private static RuntimeException rethrowable(Throwable failure) {
		Throwable cause = unwrap(failure);
		if (cause instanceof RuntimeException runtime) {
			return runtime;
		}
		if (cause instanceof Error error) {
			throw error;
		}
		return new CompletionException(cause);
	}

	/**
	 * One request to a store.
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	public interface StoreRequest<T extends @Nullable Object> {

		/**
		 * Send the request.
		 * @return its stage
		 */
		CompletionStage<T> send();

	}

}
