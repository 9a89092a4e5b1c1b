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

package dev.distlock.sample.voucher;

import java.net.URI;

import dev.distlock.DistributedLockException;
import dev.distlock.LockAcquisitionException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns rejections into RFC 9457 problem details ({@code application/problem+json}) with
 * a stable {@code code} property. Only a request that could not be processed safely
 * (Redis unreachable, lock lost before the commit) is a 5xx, and then nothing was
 * ordered.
 *
 * @author distlock
 * @since 0.1.0
 */
@RestControllerAdvice
public class VoucherProblems extends ResponseEntityExceptionHandler {

	/**
	 * Retry-After when the lock store did not say how long the holder's lease has left.
	 */
	static final long DEFAULT_RETRY_AFTER_SECONDS = 1;

	@ExceptionHandler
	ResponseEntity<Object> orderRejected(OrderRejectedException ex) {
		return problem(HttpStatus.CONFLICT, ex.getReason().code(), ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<Object> duplicateOrder(DuplicateKeyException ex) {
		return problem(HttpStatus.CONFLICT, OrderRejectedException.Reason.ALREADY_ORDERED.code(),
				"The user already ordered this voucher");
	}

	/**
	 * The user's lock is held by another request: 429, with a {@code Retry-After} of the
	 * holder's remaining lease (the latest the lock frees up), or 1 second when unknown.
	 * An interrupted wait is not "busy": nothing was ordered and the request failed.
	 */
	@ExceptionHandler
	ResponseEntity<Object> busy(LockAcquisitionException ex) {
		if (ex.getCause() instanceof InterruptedException) {
			return nothingOrdered();
		}
		ProblemDetail problem = problemDetail(HttpStatus.TOO_MANY_REQUESTS, "busy",
				"Another request of the same user is being processed; retry later");
		return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds(ex)))
			.body(problem);
	}

	/**
	 * Redis unreachable before the order ran, or the lock lost or unconfirmable before
	 * its transaction committed (which then rolled back). A release that failed after the
	 * commit never gets here: {@link VoucherController} answers it with the order.
	 */
	@ExceptionHandler
	ResponseEntity<Object> lockUnavailable(DistributedLockException ex) {
		return nothingOrdered();
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidUser(InvalidUserException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-user", ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidVoucher(InvalidVoucherException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-voucher", ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<Object> unknownVoucher(UnknownVoucherException ex) {
		return problem(HttpStatus.NOT_FOUND, "unknown-voucher", ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<Object> unknownOrder(UnknownOrderException ex) {
		return problem(HttpStatus.NOT_FOUND, "unknown-order", ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<Object> malformedVoucherId(MethodArgumentTypeMismatchException ex) {
		return problem(HttpStatus.NOT_FOUND, "unknown-voucher", "No voucher with id '" + ex.getValue() + "'");
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-voucher", "The request body is not a valid voucher");
	}

	/**
	 * Return the whole seconds, rounded up, until the lock is free at the latest.
	 * @param ex the busy exception
	 * @return the {@code Retry-After} value, at least 1
	 */
	static long retryAfterSeconds(LockAcquisitionException ex) {
		return ex.getHolderLeaseRemaining()
			.map((remaining) -> Math.max(1, remaining.getSeconds() + ((remaining.getNano() > 0) ? 1 : 0)))
			.orElse(DEFAULT_RETRY_AFTER_SECONDS);
	}

	private static ResponseEntity<Object> nothingOrdered() {
		return problem(HttpStatus.SERVICE_UNAVAILABLE, "lock-unavailable",
				"The order could not be processed safely; nothing was ordered");
	}

	private static ResponseEntity<Object> problem(HttpStatus status, String code, @Nullable String detail) {
		return ResponseEntity.status(status).body(problemDetail(status, code, detail));
	}

	private static ProblemDetail problemDetail(HttpStatus status, String code, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create("urn:distlock:sample:problem:" + code));
		problem.setProperty("code", code);
		return problem;
	}

}
