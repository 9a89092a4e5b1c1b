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
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@code docs/configuration.md} documents every property of the configuration
 * metadata with its default.
 *
 * @author distlock
 */
class ConfigurationDocsTests {

	@Test
	void everyPropertyOfTheMetadataIsDocumentedWithItsDefault() throws IOException {
		Map<String, Object> metadata = ConfigurationDocs.metadata(getClass().getClassLoader());
		assertThat(metadata).as("distlock properties in the configuration metadata").containsKey("distlock.enabled");
		assertThat(ConfigurationDocs.problems(metadata, documented())).isEmpty();
	}

	@Test
	void everyDocumentedPropertyIsInTheMetadata() throws IOException {
		Map<String, Object> metadata = ConfigurationDocs.metadata(getClass().getClassLoader());
		assertThat(documented().keySet()).allSatisfy((name) -> assertThat(metadata).as(name).containsKey(name));
	}

	@Test
	void reportsAnUndocumentedPropertyAndAWrongDefault() {
		String json = """
				{"properties": [
				  {"name": "distlock.wait-time", "type": "java.time.Duration", "defaultValue": "0s"},
				  {"name": "distlock.watchdog-lease", "type": "java.time.Duration", "defaultValue": "30s"},
				  {"name": "distlock.renewal-batch-size", "type": "java.lang.Integer", "defaultValue": 500},
				  {"name": "distlock.enabled", "type": "java.lang.Boolean", "defaultValue": true},
				  {"name": "distlock.max-hold", "type": "java.time.Duration"},
				  {"name": "spring.data.redis.timeout", "type": "java.time.Duration"}
				]}""";
		String page = """
				| Property | Default | Description |
				|---|---|---|
				| `distlock.wait-time` | `0ms` | Wait. |
				| `distlock.watchdog-lease` | `10s` | Lease. |
				| `distlock.enabled` | `true` | Whether. |
				| `distlock.max-hold` | – | Cap. |
				""";
		Map<String, Object> metadata = ConfigurationDocs.metadata(json);
		assertThat(metadata).doesNotContainKey("spring.data.redis.timeout");
		assertThat(ConfigurationDocs.problems(metadata, ConfigurationDocs.documented(page))).containsExactly(
				"distlock.watchdog-lease: documented default '10s' but the metadata says '30s'",
				"distlock.renewal-batch-size: not documented");
	}

	@Test
	void readsTheDefaultsOfThePropertyRows() {
		Map<String, String> expected = new LinkedHashMap<>();
		expected.put("distlock.key-prefix", "lock:");
		expected.put("distlock.max-hold", ConfigurationDocs.NO_DEFAULT);
		assertThat(ConfigurationDocs.documented("""
				| `distlock.key-prefix` | `lock:` | Prefix. |
				| `distlock.max-hold` | – | Cap. |
				| not a property | `x` | y |
				""")).containsExactlyEntriesOf(expected);
	}

	private static Map<String, String> documented() throws IOException {
		return ConfigurationDocs.documented(Files.readString(RepositoryRoot.find().resolve("docs/configuration.md")));
	}

}
