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

package dev.distlock.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.json.JsonParserFactory;

/**
 * Compares the configuration metadata of distlock's properties with the property tables
 * of the configuration page ({@code docs/configuration.md}).
 * <p>
 * A property row of the page is a table row whose first cell is the property's name in
 * backticks and whose second cell is its default in backticks, or {@code –} for none.
 *
 * @author distlock
 */
final class ConfigurationDocs {

	/** What the page writes for a property without a default. */
	static final String NO_DEFAULT = "–";

	private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z0-9.-]+)`\\s*\\|\\s*([^|]*?)\\s*\\|");

	private static final Pattern DURATION = Pattern.compile("^(\\d+)(ns|us|ms|s|m|h|d)$");

	private ConfigurationDocs() {
	}

	/**
	 * Return the properties of the page's tables with their documented defaults
	 * ({@link #NO_DEFAULT} for none).
	 * @param markdown the page
	 * @return property name to documented default, in page order
	 */
	static Map<String, String> documented(String markdown) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (String line : markdown.split("\n")) {
			Matcher row = ROW.matcher(line);
			if (row.find()) {
				String value = row.group(2).strip();
				if (value.startsWith("`") && value.endsWith("`") && value.length() >= 2) {
					value = value.substring(1, value.length() - 1);
				}
				properties.put(row.group(1), value);
			}
		}
		return properties;
	}

	/**
	 * Return distlock's properties from every configuration metadata file on the class
	 * path: those whose name starts with {@code distlock.} or contains
	 * {@code .distlock.}.
	 * @param classLoader the class loader to search
	 * @return property name to its default as the metadata gives it ({@code null} for
	 * none)
	 */
	static Map<String, Object> metadata(ClassLoader classLoader) {
		Map<String, Object> properties = new LinkedHashMap<>();
		try {
			for (URL url : Collections.list(classLoader.getResources("META-INF/spring-configuration-metadata.json"))) {
				String json;
				try (InputStream in = url.openStream()) {
					json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				}
				if (json.contains("distlock.")) {
					properties.putAll(metadata(json));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return properties;
	}

	/**
	 * Return distlock's properties of one configuration metadata document.
	 * @param json the document
	 * @return property name to its default ({@code null} for none)
	 */
	@SuppressWarnings("unchecked")
	static Map<String, Object> metadata(String json) {
		Map<String, Object> properties = new LinkedHashMap<>();
		Object entries = JsonParserFactory.getJsonParser().parseMap(json).get("properties");
		if (entries instanceof List<?> list) {
			for (Object entry : list) {
				Map<String, Object> property = (Map<String, Object>) entry;
				String name = (String) property.get("name");
				if (name.startsWith("distlock.") || name.contains(".distlock.")) {
					properties.put(name, property.get("defaultValue"));
				}
			}
		}
		return properties;
	}

	/**
	 * Return what the page gets wrong about the metadata: a property it does not list, or
	 * lists with another default. A property without a default in the metadata may have
	 * any default on the page (the metadata cannot tell).
	 * @param metadata the properties of the metadata with their defaults
	 * @param documented the properties of the page with their defaults
	 * @return one line per problem, empty when the page agrees with the metadata
	 */
	static List<String> problems(Map<String, Object> metadata, Map<String, String> documented) {
		List<String> problems = new ArrayList<>();
		metadata.forEach((name, defaultValue) -> {
			String page = documented.get(name);
			if (page == null) {
				problems.add(name + ": not documented");
			}
			else if (defaultValue != null && !sameDefault(defaultValue, page)) {
				problems.add(name + ": documented default '" + page + "' but the metadata says '" + text(defaultValue)
						+ "'");
			}
		});
		return problems;
	}

	private static boolean sameDefault(Object metadata, String page) {
		String expected = text(metadata);
		// Enum values bind in either form (READ_ONLY, read-only)
		if (expected.replace('_', '-').equalsIgnoreCase(page.replace('_', '-'))) {
			return true;
		}
		Duration left = duration(expected);
		Duration right = duration(page);
		return left != null && left.equals(right);
	}

	private static String text(Object value) {
		if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())) {
			return Long.toString(number.longValue());
		}
		return String.valueOf(value);
	}

	private static Duration duration(String text) {
		Matcher matcher = DURATION.matcher(text.toLowerCase(Locale.ROOT));
		if (!matcher.matches()) {
			return null;
		}
		long amount = Long.parseLong(matcher.group(1));
		return switch (matcher.group(2)) {
			case "ns" -> Duration.ofNanos(amount);
			case "us" -> Duration.ofNanos(amount * 1000);
			case "ms" -> Duration.ofMillis(amount);
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			case "h" -> Duration.ofHours(amount);
			default -> Duration.ofDays(amount);
		};
	}

}
