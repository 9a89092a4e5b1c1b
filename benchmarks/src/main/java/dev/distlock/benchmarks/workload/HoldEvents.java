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

package dev.distlock.benchmarks.workload;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What one contended worker process recorded: how many critical sections it ran in total
 * (warm-up included, to check the shared counter), how many waits ran out, and per
 * measured critical section three {@link System#nanoTime()} readings: when the acquire
 * began, when it returned, and when the release began. On Linux {@code nanoTime} reads
 * {@code CLOCK_MONOTONIC}, which all processes of a machine share, so readings of
 * different processes can be compared.
 *
 * @param totalOps critical sections run, warm-up included
 * @param timeouts acquires whose wait ran out
 * @param requested acquire begin times
 * @param acquired acquire return times
 * @param releasing release begin times
 * @author distlock
 * @since 0.1.0
 */
record HoldEvents(long totalOps, long timeouts, long[] requested, long[] acquired, long[] releasing) {

	void write(Path file) throws IOException {
		try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
			out.writeLong(this.totalOps);
			out.writeLong(this.timeouts);
			out.writeInt(this.acquired.length);
			for (int i = 0; i < this.acquired.length; i++) {
				out.writeLong(this.requested[i]);
				out.writeLong(this.acquired[i]);
				out.writeLong(this.releasing[i]);
			}
		}
	}

	static HoldEvents read(Path file) throws IOException {
		try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
			long totalOps = in.readLong();
			long timeouts = in.readLong();
			int count = in.readInt();
			long[] requested = new long[count];
			long[] acquired = new long[count];
			long[] releasing = new long[count];
			for (int i = 0; i < count; i++) {
				requested[i] = in.readLong();
				acquired[i] = in.readLong();
				releasing[i] = in.readLong();
			}
			return new HoldEvents(totalOps, timeouts, requested, acquired, releasing);
		}
	}

}
