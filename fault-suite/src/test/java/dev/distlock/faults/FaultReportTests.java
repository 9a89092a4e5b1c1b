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
package dev.distlock.faults;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite's report starts with the provenance line the documentation check
 * ({@code MeasuredFigures}) requires of a results file.
 *
 * @author distlock
 */
class FaultReportTests {

	@Test
	void startsWithTheProvenanceLineTheDocumentationCheckReads() {
		FaultReport report = new FaultReport(Tier.QUICK, "7.0.15");
		assertThat(report.provenance("41433f8", Instant.now().plusSeconds(90)))
			.matches("Provenance: commit 41433f8; date \\d{4}-\\d{2}-\\d{2}; duration 9\\d s; machine \\d+ CPUs, .+, "
					+ "Redis 7\\.0\\.15 on loopback\\.");
		assertThat(report.toMarkdown().lines()).element(2).asString().startsWith("Provenance: commit ");
	}

}
