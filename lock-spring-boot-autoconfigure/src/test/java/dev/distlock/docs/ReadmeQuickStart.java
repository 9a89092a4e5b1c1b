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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ByteArrayResource;

/**
 * One store's quick start of the README, as its test reads it: the fenced block after
 * each marker comment {@code <!-- quick-start:<store>:<part> -->}, where the part is
 * {@code properties} (the application's YAML), {@code check} (the command that shows the
 * lock held) or {@code refused} (the message of a call refused meanwhile).
 *
 * @author distlock
 */
final class ReadmeQuickStart {

	private final String store;

	private final List<String> lines;

	private ReadmeQuickStart(String store, List<String> lines) {
		this.store = store;
		this.lines = lines;
	}

	/**
	 * Read the quick start of one store from the repository's README.
	 * @param store the store's name in the markers ({@code redis}, {@code postgresql},
	 * {@code zookeeper})
	 * @return the quick start
	 */
	static ReadmeQuickStart of(String store) {
		Path readme = RepositoryRoot.find().resolve("README.md");
		return new ReadmeQuickStart(store, MarkdownBlocks.read(readme));
	}

	/**
	 * Return the application's properties, flattened as Spring Boot binds them
	 * ({@code spring.datasource.url}).
	 * @return the properties
	 */
	Map<String, String> properties() {
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ByteArrayResource(String.join("\n", block("properties")).getBytes()));
		Properties properties = yaml.getObject();
		Map<String, String> flat = new LinkedHashMap<>();
		properties.forEach((name, value) -> flat.put(String.valueOf(name), String.valueOf(value)));
		return flat;
	}

	/**
	 * Return the command that shows the lock held.
	 * @return the command's one line
	 */
	String check() {
		return String.join(" ", block("check")).strip();
	}

	/**
	 * Return the message of the call refused while the lock is held, without the
	 * exception's name.
	 * @return the message
	 */
	String refusal() {
		String quote = String.join(" ", block("refused")).strip();
		return quote.substring(quote.indexOf(": ") + 2);
	}

	private List<String> block(String part) {
		String marker = "<!-- quick-start:" + this.store + ":" + part + " -->";
		int at = this.lines.indexOf(marker);
		if (at < 0 || at + 1 >= this.lines.size() || !this.lines.get(at + 1).startsWith("```")) {
			throw new IllegalStateException("README.md has no fenced block right after " + marker);
		}
		List<String> block = new ArrayList<>();
		for (int i = at + 2; i < this.lines.size() && !this.lines.get(i).startsWith("```"); i++) {
			block.add(this.lines.get(i));
		}
		return block;
	}

}
