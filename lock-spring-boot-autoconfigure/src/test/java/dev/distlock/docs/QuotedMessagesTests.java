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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that every log line or exception message the README and the pages of
 * {@code docs/} quote is one the main code can produce (see CONTRIBUTING.md,
 * "Documentation checks").
 *
 * @author distlock
 */
class QuotedMessagesTests {

	@Test
	void everyQuotedMessageOfTheReadmeOrDocsIsOneTheCodeProduces() {
		Path root = RepositoryRoot.find();
		assertThat(checker(root).problems(root, MarkdownBlocks.pages(root))).isEmpty();
	}

	@Test
	void reportsAWrongQuoteAWrongWordAndAnUnknownException(@TempDir Path dir) throws IOException {
		Path page = dir.resolve("broken-quotes.md");
		try (InputStream fixture = QuotedMessagesTests.class.getResourceAsStream("broken-quotes.md")) {
			Files.copy(fixture, page);
		}
		assertThat(checker(RepositoryRoot.find()).problems(dir, List.of(page))).containsExactly(
				"broken-quotes.md:6: @DistributedLock methods of com.example.OrderService need a LockClient bean, "
						+ "but there is none. distlock auto-configures one on the application's StringRedisTemplate "
						+ "when there is exactly one (or a @Primary one) and distlock.enabled is not false; otherwise "
						+ "define a LockClient bean.: no string of the code produces it",
				"broken-quotes.md:14: dev.distlock.LockAcquisitionException: Lock 'order:42' is held elsewhere; "
						+ "not taken within 2000 ms: no string of the code produces it",
				"broken-quotes.md:16: dev.distlock.LockNotThereException: Lock 'order:42' is held elsewhere; "
						+ "not acquired within 2000 ms: no type dev.distlock.LockNotThereException");
	}

	@Test
	void matchesVariablePartsFormatSpecifiersAndATruncatedQuote() {
		MessageTemplates templates = new MessageTemplates();
		templates.add("""
				class Sample {
					void fail(String key, long millis) {
						throw new IllegalStateException("Lock '" + key + "' was not acquired within " + millis + " ms");
					}
					String describe(int count) {
						return "Renewed %d lock lease(s) in one round".formatted(count);
					}
					// "A comment is not a message of the code"
				}
				""");
		assertThat(templates.produces("Lock 'order:42' was not acquired within 2000 ms", false)).isTrue();
		assertThat(templates.produces("Lock 'order:42' was not acquired within", true)).isTrue();
		assertThat(templates.produces("Lock 'order:42' was not acquired within 2000 s", false)).isFalse();
		assertThat(templates.produces("Renewed 3 lock lease(s) in one round", false)).isTrue();
		assertThat(templates.produces("A comment is not a message of the code", false)).isFalse();
	}

	@Test
	void readsOnlyFencedBlocksWithoutALanguageOneQuotePerParagraph() {
		List<QuotedMessages.Quote> quotes = QuotedMessages.quotes(List.of("Text", "```", "first line", "wrapped", "",
				"second", "```", "```bash", "./mvnw verify", "```"));
		assertThat(quotes).containsExactly(new QuotedMessages.Quote(3, "first line wrapped"),
				new QuotedMessages.Quote(6, "second"));
	}

	private static QuotedMessages checker(Path root) {
		return new QuotedMessages(MessageTemplates.of(root), SourceIndex.of(root));
	}

}
