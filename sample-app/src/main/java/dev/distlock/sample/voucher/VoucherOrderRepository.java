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

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.distlock.fencing.FencedUpdates;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.util.Assert;

/**
 * Tables {@code voucher_order} and {@code order_user}, the user's row that each order
 * writes under the user's fencing token first.
 *
 * @author distlock
 * @since 0.1.0
 */
@Repository
public class VoucherOrderRepository {

	private final JdbcClient jdbc;

	private final FencedUpdates fenced;

	/**
	 * Create a new repository.
	 * @param jdbc the client of the application's database
	 */
	public VoucherOrderRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
		this.fenced = FencedUpdates.of(jdbc);
	}

	/**
	 * Return whether the user has ordered the voucher.
	 * @param voucherId the voucher id
	 * @param userId the user id
	 * @return whether an order exists
	 */
	public boolean exists(long voucherId, long userId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = :voucher AND user_id = :user")
			.param("voucher", voucherId)
			.param("user", userId)
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * Insert an order, after a guarded update of the user's {@code order_user} row with
	 * the fencing token of the user's lock: a holder whose lease ran out while a newer
	 * holder of the same user's lock already ordered writes nothing.
	 * @param voucherId the voucher id
	 * @param userId the user id
	 * @param createdAt when the order is placed
	 * @param fencingToken the fencing token of the user's lock
	 * @return the order with its generated id
	 * @throws dev.distlock.StaleFencingTokenException if a newer holder of the user's
	 * lock already wrote the user's row
	 */
	public VoucherOrder insert(long voucherId, long userId, Instant createdAt, long fencingToken) {
		fence(userId, createdAt, fencingToken);
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO voucher_order (user_id, voucher_id, created_at, fencing_token) "
					+ "VALUES (:user, :voucher, :created, :fence)")
			.param("user", userId)
			.param("voucher", voucherId)
			.param("created", Timestamp.from(createdAt))
			.param("fence", fencingToken)
			.update(keys, "id");
		Number id = keys.getKey();
		Assert.state(id != null, "No id generated for the new order");
		return new VoucherOrder(id.longValue(), userId, voucherId, createdAt, fencingToken);
	}

	/**
	 * Write the user's row under the fencing token: the guarded update, or the row itself
	 * on the user's first order (a concurrent first order of a stale holder then fails on
	 * the primary key).
	 */
	private void fence(long userId, Instant at, long fencingToken) {
		try {
			this.fenced.table("order_user")
				.set("last_order_at", Timestamp.from(at))
				.whereId("user_id", userId)
				.fencedBy("fencing_token", fencingToken)
				.update();
		}
		catch (EmptyResultDataAccessException ex) {
			this.jdbc.sql("INSERT INTO order_user (user_id, last_order_at, fencing_token) VALUES (:user, :at, :fence)")
				.param("user", userId)
				.param("at", Timestamp.from(at))
				.param("fence", fencingToken)
				.update();
		}
	}

	/**
	 * Return the orders of a voucher, oldest first.
	 * @param voucherId the voucher id
	 * @return the orders
	 */
	public List<VoucherOrder> findByVoucher(long voucherId) {
		return this.jdbc
			.sql("SELECT id, user_id, voucher_id, created_at, fencing_token FROM voucher_order "
					+ "WHERE voucher_id = :voucher ORDER BY id")
			.param("voucher", voucherId)
			.query(VoucherOrderRepository::order)
			.list();
	}

	/**
	 * Return one order of a voucher.
	 * @param voucherId the voucher id
	 * @param orderId the order id
	 * @return the order, or empty if the voucher has no order with that id
	 */
	public Optional<VoucherOrder> find(long voucherId, long orderId) {
		return this.jdbc
			.sql("SELECT id, user_id, voucher_id, created_at, fencing_token FROM voucher_order "
					+ "WHERE voucher_id = :voucher AND id = :id")
			.param("voucher", voucherId)
			.param("id", orderId)
			.query(VoucherOrderRepository::order)
			.optional();
	}

	private static VoucherOrder order(ResultSet rs, int row) throws SQLException {
		return new VoucherOrder(rs.getLong("id"), rs.getLong("user_id"), rs.getLong("voucher_id"),
				rs.getTimestamp("created_at").toInstant(), rs.getLong("fencing_token"));
	}

}
