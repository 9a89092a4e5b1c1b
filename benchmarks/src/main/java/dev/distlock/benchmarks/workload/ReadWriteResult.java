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

/**
 * Outcome of the read-write workload.
 *
 * @param readers reader threads
 * @param readersShare whether readers took the read lock (else the write lock, for the
 * write-lock-only comparison)
 * @param readerOpsPerSecond reader critical sections per second
 * @param writerOpsPerSecond writer critical sections per second
 * @param writerWait time from the writer asking for the write lock to holding it
 * @param maxReadersTogether most readers seen inside at once
 * @param violations critical sections that saw a writer and another holder inside at once
 * (must be 0)
 * @param timeouts acquires whose wait ran out
 * @author distlock
 * @since 0.1.0
 */
public record ReadWriteResult(int readers, boolean readersShare, double readerOpsPerSecond, double writerOpsPerSecond,
		Latency writerWait, int maxReadersTogether, long violations, long timeouts) {

}
