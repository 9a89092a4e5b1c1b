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

package dev.distlock.sample.load;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The hot-item mode of the load command ({@code --hot-item}): for the baseline (a
 * conditional {@code UPDATE} without a stock lock) and then each number of locked
 * segments, a fresh voucher with a large stock that many distinct users order once each,
 * spread over all instances; then one {@link HotItemTable table}. Arguments are base URIs
 * (default {@code http://localhost:8080}) and the options {@code --stock=2000},
 * {@code --users=} (default the stock plus 10%), {@code --concurrency=64},
 * {@code --segments=1,2,4,8,16}, {@code --warm-up=0} (the stock of an unreported round of
 * every configuration run first) and {@code --redis=redis://127.0.0.1:6379} (the Redis
 * the instances use, to count store requests; {@code --redis=none} to not count them).
 *
 * @author distlock
 * @since 0.1.0
 */
public final class HotItemCommand {

	private HotItemCommand() {
	}

	/**
	 * Run the hot-item configurations and print the table.
	 * @param args base URIs and options, {@code --hot-item} allowed
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		List<URI> instances = new ArrayList<>();
		int stock = 2000;
		Integer users = null;
		int concurrency = 64;
		int warmUp = 0;
		List<Integer> segments = List.of(1, 2, 4, 8, 16);
		String redisUri = "redis://127.0.0.1:6379";
		for (String arg : args) {
			if (arg.equals("--hot-item")) {
				continue;
			}
			if (arg.startsWith("--stock=")) {
				stock = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--users=")) {
				users = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--concurrency=")) {
				concurrency = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--warm-up=")) {
				warmUp = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--segments=")) {
				segments = segments(arg);
			}
			else if (arg.startsWith("--redis=")) {
				redisUri = arg.substring("--redis=".length());
			}
			else if (arg.startsWith("http://") || arg.startsWith("https://")) {
				instances.add(URI.create(arg));
			}
			else {
				throw new IllegalArgumentException("Unknown argument '" + arg + "': expected base URIs and "
						+ "--stock=N, --users=N, --concurrency=N, --segments=N,N,..., --warm-up=N, --redis=URI|none");
			}
		}
		if (instances.isEmpty()) {
			instances.add(URI.create("http://localhost:8080"));
		}
		int userCount = (users != null) ? users : stock + stock / 10;
		List<HotItemConfiguration> configurations = configurations(segments);
		try (Redis redis = new Redis(redisUri)) {
			System.out.printf("Hot item: %s; stock %d, %d users with one order each, %d in flight; Redis %s%n",
					instances.stream().map(URI::toString).collect(Collectors.joining(", ")), stock, userCount,
					concurrency, (redis.counter != null) ? redisUri : "not counted (" + redisUri + ")");
			if (warmUp > 0) {
				HotItemRun.against(instances, warmUp, warmUp + warmUp / 10, concurrency, null).run(configurations);
			}
			HotItemTable table = HotItemRun.against(instances, stock, userCount, concurrency, redis.counter)
				.run(configurations);
			System.out.print(table.table());
		}
	}

	/**
	 * Return the baseline followed by one configuration of locked segments per number.
	 * @param segments the numbers of segments
	 * @return the configurations
	 */
	static List<HotItemConfiguration> configurations(List<Integer> segments) {
		List<HotItemConfiguration> configurations = new ArrayList<>();
		configurations.add(HotItemConfiguration.BASELINE);
		segments.forEach((count) -> configurations.add(HotItemConfiguration.segments(count)));
		return configurations;
	}

	private static List<Integer> segments(String arg) {
		List<Integer> segments = new ArrayList<>();
		for (String value : arg.substring(arg.indexOf('=') + 1).split(",")) {
			segments.add(CommandArguments.number("--segments=" + value.strip()));
		}
		return segments;
	}

	/**
	 * The Redis counter, when a Redis is given and answers.
	 */
	private static final class Redis implements AutoCloseable {

		private final @Nullable RedisCommandCounter counter;

		Redis(String uri) {
			this.counter = uri.equals("none") ? null : RedisCommandCounter.connect(uri);
		}

		@Override
		public void close() {
			if (this.counter != null) {
				this.counter.close();
			}
		}

	}

}
