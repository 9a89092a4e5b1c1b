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

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Request body of {@code POST /api/vouchers}. The sale begins now and lasts one day
 * unless times are given.
 *
 * @param title the title, not blank, at most 200 characters
 * @param stock how many vouchers to sell, not negative
 * @param beginTime when the sale begins, or {@code null} for now
 * @param endTime when the sale ends, or {@code null} for one day after it begins
 * @param segments in how many segments to split the stock (1 to 64), or {@code null} for
 * 1: a hot voucher's orders then run in parallel, one per segment
 * @param stockLocks whether to keep the stock in segment rows taken under segment locks,
 * or {@code null} for the default: {@code true} with more than 1 segment, {@code false}
 * (a conditional {@code UPDATE}, no lock) with 1; {@code false} is refused with more than
 * 1 segment
 * @author distlock
 * @since 0.1.0
 */
public record NewVoucher(@Nullable String title, @Nullable Integer stock, @Nullable Instant beginTime,
		@Nullable Instant endTime, @Nullable Integer segments, @Nullable Boolean stockLocks) {

	private static final int MAX_SEGMENTS = 64;

	private static final int MAX_TITLE_LENGTH = 200;

	private static final Duration DEFAULT_SALE = Duration.ofDays(1);

	/**
	 * Check the fields and fill in the default times.
	 * @param now the current time
	 * @return the voucher to create, with id {@code 0}
	 * @throws InvalidVoucherException if a field is missing or out of range
	 */
	public Voucher toVoucher(Instant now) {
		if (this.title == null || this.title.isBlank() || this.title.length() > MAX_TITLE_LENGTH) {
			throw new InvalidVoucherException("'title' must be 1 to " + MAX_TITLE_LENGTH + " characters");
		}
		if (this.stock == null || this.stock < 0) {
			throw new InvalidVoucherException("'stock' must be 0 or more, but was " + this.stock);
		}
		Instant begin = ((this.beginTime != null) ? this.beginTime : now).truncatedTo(ChronoUnit.MICROS);
		Instant end = ((this.endTime != null) ? this.endTime : begin.plus(DEFAULT_SALE)).truncatedTo(ChronoUnit.MICROS);
		if (!end.isAfter(begin)) {
			throw new InvalidVoucherException("'endTime' " + end + " must be after 'beginTime' " + begin);
		}
		int split = (this.segments != null) ? this.segments : 1;
		if (split < 1 || split > MAX_SEGMENTS) {
			throw new InvalidVoucherException("'segments' must be 1 to " + MAX_SEGMENTS + ", but was " + split);
		}
		if (Boolean.FALSE.equals(this.stockLocks) && split > 1) {
			throw new InvalidVoucherException(
					"'stockLocks' must be true (or left out) with more than 1 segment, but was false with " + split
							+ " segments");
		}
		boolean locked = (this.stockLocks != null) ? this.stockLocks : split > 1;
		return new Voucher(0, this.title, this.stock, begin, end, split, locked, List.of());
	}

}
