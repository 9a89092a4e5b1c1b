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

package dev.distlock.benchmarks.zookeeper;

/**
 * What one measurement of one library in one round of a scenario found.
 *
 * @param grantsPerSecond grants in the measured window, per second
 * @param p99WaitMillis the 99th percentile of the measured grants' waits (asking to
 * holding), in milliseconds
 * @param requestsPerGrant the requests the ensemble's servers received over the whole
 * measurement (connecting, warm-up and measured window), divided by the grants over the
 * same span
 * @param loadAverages the machine's load average (1 min) at the start and end of the
 * measurement
 * @author distlock
 * @since 0.1.0
 */
record ZooKeeperFigure(double grantsPerSecond, double p99WaitMillis, double requestsPerGrant, String loadAverages) {

}
