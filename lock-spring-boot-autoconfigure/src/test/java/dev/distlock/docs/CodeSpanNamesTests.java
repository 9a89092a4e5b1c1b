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
 * Tests that every exception, annotation attribute, class and method the README and the
 * pages of {@code docs/} name in code spans exists in the source tree (see
 * CONTRIBUTING.md, "Documentation checks").
 *
 * @author distlock
 */
class CodeSpanNamesTests {

	@Test
	void everyJavaNameInACodeSpanOfTheReadmeOrDocsExists() {
		Path root = RepositoryRoot.find();
		assertThat(new CodeSpanNames(SourceIndex.of(root)).problems(root, MarkdownBlocks.pages(root))).isEmpty();
	}

	@Test
	void readsNoDeclarationFromCommentsOrTextBlocks() {
		SourceIndex index = new SourceIndex();
		index.add("""
				package dev.distlock.docs;
				/**
				 * An example: {@code class Javadoc { void fromJavadoc() { } }}.
				 */
				class Sample {
					String source = \"\"\"
							class TextBlock {
								void fromTextBlock() {
								}
							}
							\"\"\";
				}
				""");
		assertThat(index.hasType("", "Sample")).isTrue();
		assertThat(index.hasType("", "Javadoc")).isFalse();
		assertThat(index.hasType("", "TextBlock")).isFalse();
		assertThat(index.declaresAnywhere("fromTextBlock")).isFalse();
		assertThat(index.declaresAnywhere("fromJavadoc")).isFalse();
	}

	@Test
	void reportsAMissingTypeMethodAttributeAndAMisattributedTest(@TempDir Path dir) throws IOException {
		SourceIndex index = new SourceIndex();
		index.add("""
				package dev.distlock.annotation;
				public @interface DistributedLock {
					String key();
					boolean fair() default false;
					LockMode mode() default LockMode.WRITE;
				}
				""");
		index.add("""
				package dev.distlock.annotation;
				public enum LockMode {
					READ,
					WRITE
				}
				""");
		index.add("""
				package dev.distlock.store.test;
				public abstract class LossContract extends ContractGroup {
					@Test
					void watchdogReportsALockTakenOverByAnotherOwner() {
					}
				}
				""");
		index.add("""
				package dev.distlock.store.test;
				public abstract class ExclusionContract extends ContractGroup {
					void rejectsUnlockByAnotherThreadAndKeepsTheKey() {
					}
				}
				""");
		Path page = Files.writeString(dir.resolve("page.md"), """
				`@DistributedLock(fair = true)`, `mode = READ`, `LockMode.WRITE`, `IllegalStateException`,
				`distlock.acquire`, `SET NX PX`, `store.test.LossContract.watchdogReportsALockTakenOverByAnotherOwner`,
				`...watchdogReportsALockTakenOverByAnotherOwner`, `RLock`.

				`@DistributedLock(fairness = true)`, `mode = SHARED`, `LockMode.EXCLUSIVE`, `NoSuchException`,
				`store.test.LossContract.rejectsUnlockByAnotherThreadAndKeepsTheKey`, `aop.LossContract`,
				`...unlockTwice`, `lockClient.nothingLikeThis()`.
				""");
		assertThat(new CodeSpanNames(index).problems(dir, List.of(page))).containsExactly(
				"page.md:5: `@DistributedLock(fairness = true)`: @DistributedLock has no attribute fairness",
				"page.md:5: `mode = SHARED`: no constant SHARED",
				"page.md:5: `LockMode.EXCLUSIVE`: LockMode declares no EXCLUSIVE",
				"page.md:5: `NoSuchException`: no type NoSuchException",
				"page.md:5: `store.test.LossContract.rejectsUnlockByAnotherThreadAndKeepsTheKey`: "
						+ "LossContract declares no rejectsUnlockByAnotherThreadAndKeepsTheKey",
				"page.md:5: `aop.LossContract`: no type aop.LossContract",
				"page.md:5: `...unlockTwice`: LossContract declares no unlockTwice",
				"page.md:5: `lockClient.nothingLikeThis()`: no method nothingLikeThis in the source tree");
	}

}
