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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.OnBusy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job most users want a distributed lock for: a {@code @Scheduled} method that must
 * run on one instance per tick. Two application contexts share one Redis and run a 5 ms
 * job every second; with {@code onBusy = SKIP} and {@code holdAtLeast = "500ms"} the job
 * runs exactly once per tick and the losing instance logs no error.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class ScheduledJobLockTests extends RedisAdviceTestSupport {

	static final ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();

	@Test
	void aShortJobOnTwoInstancesRunsOncePerTickWithoutErrors(CapturedOutput output) {
		runs.clear();
		ApplicationContextRunner instance = contextRunner().withUserConfiguration(ReportJobConfiguration.class);
		instance.withPropertyValues("job.instance=first")
			.run((first) -> instance.withPropertyValues("job.instance=second").run((second) -> {
				assertThat(first).hasNotFailed();
				assertThat(second).hasNotFailed();
				long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
				while (ticks().size() < 13 && System.nanoTime() - deadline < 0) {
					Thread.sleep(100);
				}
				// Stop between ticks, as an application that shuts down gracefully does:
				// a
				// job still running when its lock client closes is told it lost the lock.
				while (System.currentTimeMillis() % 1000 < 200 || System.currentTimeMillis() % 1000 > 600) {
					Thread.sleep(10);
				}
			}));
		Map<Long, List<String>> ticks = ticks();
		// The first and last seconds may have begun or ended while an instance was
		// starting or stopping: judge the full ticks in between.
		List<List<String>> fullTicks = List.copyOf(ticks.values()).subList(1, ticks.size() - 1);
		assertThat(fullTicks).hasSizeGreaterThanOrEqualTo(10);
		assertThat(fullTicks).allSatisfy((instancesThatRan) -> assertThat(instancesThatRan).hasSize(1));
		assertThat(output).doesNotContain(" ERROR ").doesNotContain("LockAcquisitionException");
	}

	private static Map<Long, List<String>> ticks() {
		return runs.stream()
			.collect(Collectors.groupingBy(Run::second, TreeMap::new,
					Collectors.mapping(Run::instance, Collectors.toList())));
	}

	record Run(String instance, long second) {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class ReportJobConfiguration {

		@Bean
		ReportJob reportJob(Environment environment) {
			return new ReportJob(environment.getProperty("job.instance", "unnamed"));
		}

	}

	static class ReportJob {

		private final String instance;

		ReportJob(String instance) {
			this.instance = instance;
		}

		@Scheduled(cron = "* * * * * *")
		@DistributedLock(key = "'report'", onBusy = OnBusy.SKIP, holdAtLeast = "500ms")
		public void run() throws InterruptedException {
			runs.add(new Run(this.instance, System.currentTimeMillis() / 1000));
			Thread.sleep(5);
		}

	}

}
