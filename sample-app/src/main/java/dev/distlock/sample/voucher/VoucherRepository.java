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
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

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
		this.jdbc
			.sql("INSERT INTO voucher (title, stock, begin_time, end_time, segments, stock_locks) "
					+ "VALUES (:title, :stock, :begin, :end, :segments, :stockLocks)")
			.param("title", voucher.title())
			.param("stock", voucher.stock())
			.param("begin", Timestamp.from(voucher.beginTime()))
			.param("end", Timestamp.from(voucher.endTime()))
			.param("segments", voucher.segments())
			.param("stockLocks", voucher.stockLocks())
			.update(keys, "id");
		Number id = keys.getKey();
		Assert.state(id != null, "No id generated for the new voucher");
		List<Integer> segmentStock = split(voucher.stock(), voucher.segments(), voucher.stockLocks());
		for (int segment = 0; segment < segmentStock.size(); segment++) {
			this.jdbc.sql("INSERT INTO voucher_segment (voucher_id, segment, stock) VALUES (:id, :segment, :stock)")
				.param("id", id.longValue())
				.param("segment", segment)
				.param("stock", segmentStock.get(segment))
				.update();
		}
		return new Voucher(id.longValue(), voucher.title(), voucher.stock(), voucher.beginTime(), voucher.endTime(),
				voucher.segments(), voucher.stockLocks(), segmentStock);
	}

	/**
	 * Split a stock evenly over the segments, the first ones taking one more when it does
	 * not divide.
	 * @return the stock of each segment; none without stock locks
	 */
	private static List<Integer> split(int stock, int segments, boolean stockLocks) {
		if (!stockLocks) {
			return List.of();
		}
		return IntStream.range(0, segments)
			.mapToObj((segment) -> stock / segments + ((segment < stock % segments) ? 1 : 0))
			.toList();
	}

	/**
	 * Find a voucher.
	 * @param id the voucher id
	 * @return the voucher, if it exists
	 */
	public Optional<Voucher> find(long id) {
		return this.jdbc
			.sql("SELECT id, title, stock, begin_time, end_time, segments, stock_locks FROM voucher "
					+ "WHERE id = :id")
			.param("id", id)
			.query(VoucherRepository::voucher)
			.optional()
			.map(this::withSegmentStock);
	}

	private Voucher withSegmentStock(Voucher voucher) {
		if (!voucher.stockLocks()) {
			return voucher;
		}
		List<Integer> segmentStock = segmentStock(voucher.id());
		int total = segmentStock.stream().mapToInt(Integer::intValue).sum();
		return new Voucher(voucher.id(), voucher.title(), total, voucher.beginTime(), voucher.endTime(),
				voucher.segments(), true, segmentStock);
	}

	/**
	 * Return the stock of each segment of a voucher, as committed now.
	 * @param id the voucher id
	 * @return the stock of each segment, in segment order; none without stock locks
	 */
	public List<Integer> segmentStock(long id) {
		return this.jdbc.sql("SELECT stock FROM voucher_segment WHERE voucher_id = :id ORDER BY segment")
			.param("id", id)
			.query(Integer.class)
			.list();
	}

	/**
	 * Take one voucher from the stock of one segment if any is left there.
	 * @param id the voucher id
	 * @param segment the segment
	 * @return whether one was taken
	 */
	public boolean takeOneFromSegment(long id, int segment) {
		return this.jdbc
			.sql("UPDATE voucher_segment SET stock = stock - 1 WHERE voucher_id = :id AND segment = :segment "
					+ "AND stock > 0")
			.param("id", id)
			.param("segment", segment)
			.update() == 1;
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
				rs.getTimestamp("begin_time").toInstant(), rs.getTimestamp("end_time").toInstant(),
				rs.getInt("segments"), rs.getBoolean("stock_locks"), List.of());
	}

}
