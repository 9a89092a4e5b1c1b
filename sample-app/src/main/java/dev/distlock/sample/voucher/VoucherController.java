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
import java.time.Clock;
import java.util.List;

import dev.distlock.DistributedLockException;
import dev.distlock.LockLostAfterCompletionException;
import dev.distlock.LockReleaseFailedException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * JSON API of vouchers and their orders. Rejections are answered by
 * {@link VoucherProblems}.
 *
 * @author distlock
 * @since 0.1.0
 */
@RestController
@RequestMapping("/api/vouchers")
public class VoucherController {

	static final String USER_HEADER = "X-User-Id";

	/**
	 * Header of a 201 whose order committed but whose lock was not released cleanly.
	 */
	static final String LOCK_WARNING_HEADER = "Lock-Warning";

	static final String LOCK_LOST_AFTER_COMMIT = "lock-lost-after-commit";

	static final String LOCK_RELEASE_FAILED = "lock-release-failed";

	private final VoucherRepository vouchers;

	private final VoucherOrderRepository orders;

	private final VoucherOrderService orderService;

	private final Clock clock;

	/**
	 * Create a new controller.
	 * @param vouchers the vouchers
	 * @param orders the orders
	 * @param orderService the service that places orders
	 * @param clock the clock for the default sale window
	 */
	public VoucherController(VoucherRepository vouchers, VoucherOrderRepository orders,
			VoucherOrderService orderService, Clock clock) {
		this.vouchers = vouchers;
		this.orders = orders;
		this.orderService = orderService;
		this.clock = clock;
	}

	/**
	 * Create a voucher.
	 * @param request the voucher to create
	 * @return 201 with the voucher and its location
	 */
	@PostMapping
	public ResponseEntity<Voucher> create(@RequestBody NewVoucher request) {
		Voucher voucher = this.vouchers.insert(request.toVoucher(this.clock.instant()));
		return ResponseEntity.created(URI.create("/api/vouchers/" + voucher.id())).body(voucher);
	}

	/**
	 * Return a voucher.
	 * @param id the voucher id
	 * @return the voucher with its current stock
	 */
	@GetMapping("/{id}")
	public Voucher get(@PathVariable long id) {
		return this.vouchers.find(id).orElseThrow(() -> new UnknownVoucherException(id));
	}

	/**
	 * Order a voucher for the user named by the {@code X-User-Id} header.
	 * <p>
	 * When the order committed but its lock could not be released cleanly afterwards
	 * (found lost, or Redis failed), the order exists: the answer is still 201 with the
	 * order, plus a {@code Lock-Warning} header that says what happened. A concurrent
	 * request of the same user may then have run at the same time; the unique
	 * {@code (voucher_id, user_id)} constraint still refuses a second order.
	 * @param id the voucher id
	 * @param userId the header value
	 * @return 201 with the order
	 */
	@PostMapping("/{id}/orders")
	public ResponseEntity<VoucherOrder> order(@PathVariable long id,
			@RequestHeader(name = USER_HEADER, required = false) @Nullable String userId) {
		long user = parseUserId(userId);
		try {
			return created(id, this.orderService.order(id, user), null);
		}
		catch (LockLostAfterCompletionException ex) {
			return committedDespite(ex, id, ex.getResult(), ex.isTransactionCommitted(), LOCK_LOST_AFTER_COMMIT);
		}
		catch (LockReleaseFailedException ex) {
			return committedDespite(ex, id, ex.getResult(), ex.isTransactionCommitted(), LOCK_RELEASE_FAILED);
		}
	}

	private static ResponseEntity<VoucherOrder> committedDespite(DistributedLockException ex, long voucherId,
			@Nullable Object result, boolean committed, String warning) {
		if (!committed || !(result instanceof VoucherOrder order)) {
			throw ex; // rolled back: nothing was ordered
		}
		return created(voucherId, order, warning);
	}

	private static ResponseEntity<VoucherOrder> created(long voucherId, VoucherOrder order,
			@Nullable String lockWarning) {
		ResponseEntity.BodyBuilder response = ResponseEntity
			.created(URI.create("/api/vouchers/" + voucherId + "/orders/" + order.id()));
		if (lockWarning != null) {
			response.header(LOCK_WARNING_HEADER, lockWarning);
		}
		return response.body(order);
	}

	/**
	 * Return the orders of a voucher.
	 * @param id the voucher id
	 * @return the orders, oldest first
	 */
	@GetMapping("/{id}/orders")
	public List<VoucherOrder> orders(@PathVariable long id) {
		get(id);
		return this.orders.findByVoucher(id);
	}

	/**
	 * Return one order of a voucher: the {@code Location} of a created order.
	 * @param id the voucher id
	 * @param orderId the order id
	 * @return the order
	 */
	@GetMapping("/{id}/orders/{orderId}")
	public VoucherOrder findOrder(@PathVariable long id, @PathVariable long orderId) {
		get(id);
		return this.orders.find(id, orderId).orElseThrow(() -> new UnknownOrderException(id, orderId));
	}

	private static long parseUserId(@Nullable String header) {
		if (header == null || header.isBlank()) {
			throw new InvalidUserException("Header '" + USER_HEADER + "' is required");
		}
		try {
			long userId = Long.parseLong(header.strip());
			if (userId > 0) {
				return userId;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new InvalidUserException(
				"Header '" + USER_HEADER + "' must be a positive number, but was '" + header + "'");
	}

}
