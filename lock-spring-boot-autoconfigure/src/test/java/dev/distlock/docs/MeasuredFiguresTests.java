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
 * Tests that every measured figure of the README and docs/ cites a committed results file
 * with its provenance, and is in it (see CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class MeasuredFiguresTests {

	@Test
	void everyMeasuredFigureOfTheReadmeOrDocsIsInTheResultsFileItCites() {
		Path root = RepositoryRoot.find();
		assertThat(MeasuredFigures.problems(root, MarkdownBlocks.pages(root))).isEmpty();
	}

	@Test
	void reportsAFigureNotInItsFileAFigureWithoutCitationAndAFileWithoutProvenance(@TempDir Path dir)
			throws IOException {
		Files.writeString(dir.resolve("results.md"), """
				Provenance: commit 41433f8; date 2026-11-25; duration 822 s; machine 2-core AMD EPYC VM, 24 GiB.

				| Scenario | Recovery |
				| --- | --- |
				| failover | 7169 / 19241 ms |
				| uncontended | 0.76x, 3,173 ops/s |
				""");
		Files.writeString(dir.resolve("old-results.md"), "7169 ms\n");
		Path page = Files.writeString(dir.resolve("page.md"), """
				# Figures

				From [the run](results.md): another holder got the lock 7.2 s after the kill (19.2 s at most),
				at 0.76x the floor and 3,173 ops/s, with a lease of 8 s.

				- Recovery took 6.9 s.

				| Library | Ratio |
				| --- | --- |
				| distlock | 0.78x |

				## Elsewhere

				An older run measured 2.67x, with a lease of 30 ms.

				It took [7.2 s](old-results.md), 1.5 s and 12 ms (see [that file](old-results.md)).
				""");
		assertThat(MeasuredFigures.problems(dir, List.of(page))).containsExactly(
				"page.md:6: 6.9 s is not in [results.md]", "page.md:10: 0.78x is not in [results.md]",
				"page.md:14: 2.67x cites no results file", "page.md:16: 1.5 s is not in [old-results.md]",
				"page.md:16: 12 ms is not in [old-results.md]",
				"old-results.md: no line 'Provenance: commit <hash>; date <yyyy-mm-dd>; duration <time>; "
						+ "machine <description>'");
	}

	@Test
	void findsAFigureRoundedOrInAnotherTimeUnit() {
		assertThat(MeasuredFigures.holds("took 7169 ms", "7.2", "s")).isTrue();
		assertThat(MeasuredFigures.holds("took 7169 ms", "6.9", "s")).isFalse();
		assertThat(MeasuredFigures.holds("p50 1106.5 us", "1.1", "ms")).isTrue();
		assertThat(MeasuredFigures.holds("26,449 ops/s", "26449", "ops/s")).isTrue();
		assertThat(MeasuredFigures.holds("0.76x", "0.76", "ms")).isFalse();
		assertThat(
				MeasuredFigures.holds("| Library | hand-off p50 us |\n|---|---|\n| Redisson | 1940.2 |\n", "1.9", "ms"))
			.isTrue();
	}

}
