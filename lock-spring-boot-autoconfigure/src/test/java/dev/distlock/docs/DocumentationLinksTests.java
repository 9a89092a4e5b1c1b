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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the relative links of the project's Markdown pages point to files and
 * anchors that exist.
 *
 * @author distlock
 */
class DocumentationLinksTests {

	@Test
	void everyRelativeLinkOfTheDocumentationResolves() throws IOException {
		Path root = RepositoryRoot.find();
		List<Path> pages = new ArrayList<>();
		for (String page : List.of("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "sample-app/README.md",
				"benchmarks/README.md")) {
			assertThat(root.resolve(page)).as(page).isRegularFile();
			pages.add(root.resolve(page));
		}
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		assertThat(pages).hasSizeGreaterThan(10);
		assertThat(new MarkdownLinks().brokenLinks(root, pages)).isEmpty();
	}

	@Test
	void reportsALinkToAMissingFileAndToAMissingAnchor(@TempDir Path dir) throws IOException {
		Files.createDirectories(dir.resolve("docs"));
		Files.writeString(dir.resolve("docs/page.md"), """
				# A page

				## Failure handling: `LockFailureHandler`
				""");
		Path readme = Files.writeString(dir.resolve("README.md"), """
				# Guide

				See [the page](docs/page.md), [its section](docs/page.md#failure-handling-lockfailurehandler),
				[this guide](#guide) and [the web](https://example.com/missing.md).
				A [missing page](docs/missing.md) and [a missing section](docs/page.md#transactions).
				```
				[inside code](nowhere.md)
				```
				`[inline code](nowhere.md)` and [no anchor here](#nothing).
				""");
		assertThat(new MarkdownLinks().brokenLinks(dir, List.of(readme))).containsExactly(
				"README.md:5: docs/missing.md: no such file", "README.md:5: docs/page.md#transactions: no such anchor",
				"README.md:9: #nothing: no such anchor");
	}

	@Test
	void computesAnchorsAsGitHubDoes() {
		assertThat(MarkdownLinks.slug("Tests (`./mvnw -B verify`, no Docker)"))
			.isEqualTo("tests-mvnw--b-verify-no-docker");
		assertThat(MarkdownLinks.slug("AOT and native images")).isEqualTo("aot-and-native-images");
		assertThat(MarkdownLinks.slug("`@DistributedLock`")).isEqualTo("distributedlock");
		assertThat(MarkdownLinks.anchors(List.of("# Same", "## Same", "```", "# Not a heading", "```")))
			.containsExactly("same", "same-1");
	}

}
