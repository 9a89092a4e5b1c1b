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

package dev.distlock.sample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.testing.redis.RedisEndpoint;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One instance of the sample on a {@link SharedDatabase}, for the tests that run two (or
 * more) instances side by side: on a random port, its settings passed as command line
 * arguments so that they win over the database's profile.
 *
 * @author distlock
 */
public final class SampleInstance {

	private final SharedDatabase database;

	private final Map<String, Object> properties = new LinkedHashMap<>();

	private final List<String> profiles = new ArrayList<>();

	private final List<Class<?>> sources = new ArrayList<>(List.of(VoucherApplication.class));

	private SampleInstance(SharedDatabase database) {
		this.database = database;
		this.properties.putAll(database.properties());
		this.properties.put("server.port", 0);
		this.properties.put("spring.main.banner-mode", "off");
		if (database.profile() != null) {
			this.profiles.add(database.profile());
		}
	}

	/**
	 * Return an instance on {@code database}.
	 * @param database the database every instance shares
	 * @return the instance, not started
	 */
	public static SampleInstance on(SharedDatabase database) {
		return new SampleInstance(database);
	}

	/**
	 * Lock in {@code redis} under {@code keyPrefix} (not the sample's embedded Redis).
	 * @param redis the Redis every instance shares
	 * @param keyPrefix the key prefix, one per test
	 * @return this instance
	 */
	public SampleInstance redis(RedisEndpoint redis, String keyPrefix) {
		this.properties.put("spring.data.redis.host", redis.host());
		this.properties.put("spring.data.redis.port", redis.port());
		this.properties.put("sample.embedded-redis.enabled", false);
		this.properties.put("distlock.redis.key-prefix", keyPrefix);
		return this;
	}

	/**
	 * Set a property.
	 * @param name the property
	 * @param value its value
	 * @return this instance
	 */
	public SampleInstance with(String name, Object value) {
		this.properties.put(name, value);
		return this;
	}

	/**
	 * Activate a profile after the database's.
	 * @param profile the profile
	 * @return this instance
	 */
	public SampleInstance profile(String profile) {
		this.profiles.add(profile);
		return this;
	}

	/**
	 * Add a configuration source to the sample's.
	 * @param source the configuration class
	 * @return this instance
	 */
	public SampleInstance source(Class<?> source) {
		this.sources.add(source);
		return this;
	}

	/**
	 * Start the instance.
	 * @return its context, to close
	 */
	public ConfigurableApplicationContext start() {
		SpringApplicationBuilder application = new SpringApplicationBuilder(this.sources.toArray(Class<?>[]::new));
		if (!this.profiles.isEmpty()) {
			application.profiles(this.profiles.toArray(String[]::new));
		}
		// command line arguments, so that they win over the profile's settings
		return application.run(this.properties.entrySet()
			.stream()
			.map((property) -> "--" + property.getKey() + "=" + property.getValue())
			.toArray(String[]::new));
	}

	@Override
	public String toString() {
		return "sample on " + this.database;
	}

}
