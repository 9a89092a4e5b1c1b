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

package dev.distlock.benchmarks.workload;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Rotation}.
 *
 * @author distlock
 * @since 0.1.0
 */
class RotationTests {

	@Test
	void everyRoundStartsWithTheNextLibraryAndKeepsEveryLibraryOnce() {
		List<String> libraries = List.of("distlock", "ShedLock", "JdbcLockRegistry");
		assertThat(Rotation.order(libraries, 0)).containsExactly("distlock", "ShedLock", "JdbcLockRegistry");
		assertThat(Rotation.order(libraries, 1)).containsExactly("ShedLock", "JdbcLockRegistry", "distlock");
		assertThat(Rotation.order(libraries, 2)).containsExactly("JdbcLockRegistry", "distlock", "ShedLock");
		assertThat(Rotation.order(libraries, 3)).containsExactly("distlock", "ShedLock", "JdbcLockRegistry");
	}

	@Test
	void threeRoundsPutEachLibraryFirstOnce() {
		List<String> libraries = List.of("distlock", "ShedLock", "JdbcLockRegistry");
		assertThat(List.of(0, 1, 2).stream().map((round) -> Rotation.order(libraries, round).get(0)))
			.containsExactlyInAnyOrderElementsOf(libraries);
	}

	@Test
	void twoLibrariesAlternate() {
		List<String> libraries = List.of("distlock", "Curator");
		assertThat(Rotation.order(libraries, 1)).containsExactly("Curator", "distlock");
		assertThat(Rotation.order(libraries, 2)).containsExactly("distlock", "Curator");
	}

	@Test
	void medianIsTheMiddleFigureWhateverTheOrder() {
		assertThat(Rotation.median(List.of(30.0, 10.0, 20.0))).isEqualTo(20.0);
		assertThat(Rotation.median(List.of(5.0))).isEqualTo(5.0);
		assertThat(Rotation.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.0);
	}

}
