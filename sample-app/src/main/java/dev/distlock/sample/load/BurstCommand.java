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

/**
 * Command line entry point of the load command: fires a {@link Burst} at running
 * instances and prints a {@link BurstResult#table() table}. Arguments are base URIs
 * (default {@code http://localhost:8080}) and the options {@code --users=300},
 * {@code --per-user=10}, {@code --stock=200} and {@code --concurrency=200}. With
 * {@code --hot-item} it runs the {@link HotItemCommand hot-item mode} instead.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class BurstCommand {

	private BurstCommand() {
	}

	/**
	 * Fire a burst and print the result.
	 * @param args base URIs and options
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		if (List.of(args).contains("--hot-item")) {
			HotItemCommand.main(args);
			return;
		}
		List<URI> instances = new ArrayList<>();
		int users = 300;
		int perUser = 10;
		int stock = 200;
		int concurrency = 200;
		for (String arg : args) {
			if (arg.startsWith("--users=")) {
				users = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--per-user=")) {
				perUser = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--stock=")) {
				stock = CommandArguments.number(arg);
			}
			else if (arg.startsWith("--concurrency=")) {
				concurrency = CommandArguments.number(arg);
			}
			else if (arg.startsWith("http://") || arg.startsWith("https://")) {
				instances.add(URI.create(arg));
			}
			else {
				throw new IllegalArgumentException("Unknown argument '" + arg + "': expected base URIs and "
						+ "--users=N, --per-user=N, --stock=N, --concurrency=N");
			}
		}
		if (instances.isEmpty()) {
			instances.add(URI.create("http://localhost:8080"));
		}
		BurstResult result = Burst.against(instances, users, perUser, stock, concurrency).fire();
		System.out.print(result.table());
	}

}
