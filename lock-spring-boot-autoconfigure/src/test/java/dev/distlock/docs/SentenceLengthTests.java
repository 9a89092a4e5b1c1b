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
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the README and the pages of {@code docs/} keep their sentences and bullets
 * short (see CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class SentenceLengthTests {

	@Test
	void noSentenceOfTheReadmeOrDocsIsOver35WordsAndNoBulletOrCellOver60() {
		Path root = RepositoryRoot.find();
		assertThat(SentenceLength.problems(root, MarkdownBlocks.pages(root))).isEmpty();
	}

	@Test
	void reportsALongSentenceALongBulletAndALongCellButNotCode(@TempDir Path dir) throws IOException {
		String twelve = "one two three four five six seven eight nine ten eleven twelve";
		String sentence36 = twelve + " " + twelve + " " + twelve + ".";
		Path page = Files.writeString(dir.resolve("page.md"),
				String.join("\n", "# A heading " + sentence36, "", "A short sentence, e.g. this one. " + sentence36, "",
						"- " + twelve + ". " + twelve + ". " + twelve + ". " + twelve + ". " + twelve + ". "
								+ "sixty-one.",
						"", "| a | b |", "| --- | --- |", "| " + sentence36 + " | `" + sentence36 + "` |", "", "```",
						sentence36, "```", ""));
		assertThat(SentenceLength.problems(dir, List.of(page))).hasSize(3)
			.satisfiesExactly((problem) -> assertThat(problem).startsWith("page.md:3: sentence of 36 words"),
					(problem) -> assertThat(problem).startsWith("page.md:5: item of 61 words"),
					(problem) -> assertThat(problem).startsWith("page.md:9: sentence of 36 words"));
	}

	@Test
	void countsACodeSpanAsOneWordAndALinkAsItsText() {
		assertThat(SentenceLength.words(SentenceLength.plain("Call `a b c d` via [the two words](x.md).")))
			.isEqualTo(6);
		assertThat(SentenceLength.sentences("One, e.g. two. Three? Four")).containsExactly("One, e.g. two.", "Three?",
				"Four");
	}

}
