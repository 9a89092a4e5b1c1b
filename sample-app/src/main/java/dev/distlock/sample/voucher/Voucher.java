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

import java.time.Instant;
import java.util.List;

/**
 * A voucher on sale between {@code beginTime} (inclusive) and {@code endTime} (exclusive)
 * while its stock lasts.
 *
 * @param id the id
 * @param title the title
 * @param stock how many vouchers are left, in every segment together
 * @param beginTime when the sale begins
 * @param endTime when the sale ends
 * @param segments in how many segments the stock is split, each with its own row and
 * lock; 1 for not split
 * @param stockLocks whether the stock is kept in segment rows, each taken under its
 * segment's lock: always with more than 1 segment; with 1 segment only when asked for,
 * else the stock is taken by a conditional {@code UPDATE} without a lock
 * @param segmentStock how many vouchers each segment has left, in segment order; empty
 * without stock locks
 * @author distlock
 * @since 0.1.0
 */
public record Voucher(long id, String title, int stock, Instant beginTime, Instant endTime, int segments,
		boolean stockLocks, List<Integer> segmentStock) {

}
