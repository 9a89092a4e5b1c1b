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
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.util.Assert;

/**
 * Table {@code voucher}.
 *
 * @author distlock
 * @since 0.1.0
 */
@Repository
public class VoucherRepository {

	private final JdbcClient jdbc;

	/**
	 * Create a new repository.
	 * @param jdbc the client of the application's database
	 */
	public VoucherRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Insert a voucher.
	 * @param voucher the voucher; its id is ignored
	 * @return the voucher with its generated id
	 */
	public Voucher insert(Voucher voucher) {
		KeyHolder keys = new GeneratedKeyHolder();
		this.jdbc.sql("INSERT INTO voucher (title, stock, begin_time, end_time) VALUES (:title, :stock, :begin, :end)")
			.param("title", voucher.title())
			.param("stock", voucher.stock())
			.param("begin", Timestamp.from(voucher.beginTime()))
			.param("end", Timestamp.from(voucher.endTime()))
			.update(keys, "id");
		Number id = keys.getKey();
		Assert.state(id != null, "No id generated for the new voucher");
		return new Voucher(id.longValue(), voucher.title(), voucher.stock(), voucher.beginTime(), voucher.endTime());
	}

	/**
	 * Find a voucher.
	 * @param id the voucher id
	 * @return the voucher, if it exists
	 */
	public Optional<Voucher> find(long id) {
		return this.jdbc.sql("SELECT id, title, stock, begin_time, end_time FROM voucher WHERE id = :id")
			.param("id", id)
			.query(VoucherRepository::voucher)
			.optional();
	}

	/**
	 * Take one voucher from the stock if any is left.
	 * @param id the voucher id
	 * @return whether one was taken
	 */
	public boolean takeOne(long id) {
		return this.jdbc.sql("UPDATE voucher SET stock = stock - 1 WHERE id = :id AND stock > 0")
			.param("id", id)
			.update() == 1;
	}

	private static Voucher voucher(ResultSet rs, int row) throws SQLException {
		return new Voucher(rs.getLong("id"), rs.getString("title"), rs.getInt("stock"),
				rs.getTimestamp("begin_time").toInstant(), rs.getTimestamp("end_time").toInstant());
	}

}
