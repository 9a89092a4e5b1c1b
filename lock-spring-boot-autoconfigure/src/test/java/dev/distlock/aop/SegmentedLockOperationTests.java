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

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockMode;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the {@code segments} and {@code segmentFilter} attributes of
 * {@code @DistributedLock} as {@link LockOperationSource} validates them: what is refused
 * when the method is first inspected (at startup), naming the attribute. No store
 * involved.
 *
 * @author distlock
 */
class SegmentedLockOperationTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final LockOperationSource source = new LockOperationSource(Duration.ofMillis(42), this.beanFactory,
			new LockKeyEvaluator(this.beanFactory, 512, 16));

	@Test
	void oneSegmentTheDefaultIsNotSegmented() {
		LockOperation plain = operation("plain", String.class);
		assertThat(plain.segments()).isOne();
		assertThat(plain.segmented()).isFalse();
		LockOperation segmented = operation("segmented", String.class);
		assertThat(segmented.segments()).isEqualTo(8);
		assertThat(segmented.segmented()).isTrue();
		assertThat(segmented.segmentFilter()).isEqualTo("#segment % 2 == 0");
	}

	@Test
	void refusesSegmentsWithAReadLock() {
		assertRefused("read", "segments = \"8\"", "mode = READ");
	}

	@Test
	void refusesSegmentsWithAFairLock() {
		assertRefused("fair", "segments = \"8\"", "fair = true");
	}

	@Test
	void refusesAKeyParameterThatIsACollection() {
		assertRefused("collection", "segments = \"4\"", "names several keys");
	}

	@Test
	void refusesAnInlineListOfKeys() {
		assertRefused("inlineList", "segments = \"4\"", "names several keys");
	}

	@Test
	void refusesFewerThanOneSegment() {
		assertRefused("zero", "segments = \"0\"", "at least 1");
	}

	@Test
	void refusesMoreSegmentsThanKeysPerCall() {
		assertRefused("tooMany", "segments = \"17\"", "distlock.max-keys");
	}

	@Test
	void refusesASegmentFilterWithoutSegments() {
		assertRefused("filterOnly", "segmentFilter = \"#segment > 0\"", "not segmented");
	}

	@Test
	void refusesASegmentFilterThatIsNotSpel() {
		assertRefused("badFilter", "segmentFilter = \"#segment >\"", "not a valid SpEL expression");
	}

	private void assertRefused(String methodName, String attribute, String reason) {
		Method method = methodNamed(methodName);
		assertThatIllegalStateException().isThrownBy(() -> this.source.getOperation(method, Segmented.class))
			.withMessageContaining(attribute)
			.withMessageContaining("Segmented." + methodName)
			.withMessageContaining(reason);
	}

	private LockOperation operation(String methodName, Class<?>... parameterTypes) {
		LockOperation operation = this.source
			.getOperation(ReflectionUtils.findMethod(Segmented.class, methodName, parameterTypes), Segmented.class);
		assertThat(operation).isNotNull();
		return operation;
	}

	private static Method methodNamed(String name) {
		for (Method method : Segmented.class.getDeclaredMethods()) {
			if (method.getName().equals(name)) {
				return method;
			}
		}
		throw new IllegalArgumentException(name);
	}

	static class Segmented {

		@DistributedLock(key = "'stock:' + #p0")
		public void plain(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 8, segmentFilter = "#segment % 2 == 0")
		public void segmented(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 8, mode = LockMode.READ)
		public void read(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 8, fair = true)
		public void fair(String id) {
		}

		@DistributedLock(key = "#p0", segments = 4)
		public void collection(List<String> ids) {
		}

		@DistributedLock(key = "{'a', 'b'}", segments = 4)
		public void inlineList() {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 0)
		public void zero(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 17)
		public void tooMany(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segmentFilter = "#segment > 0")
		public void filterOnly(String id) {
		}

		@DistributedLock(key = "'stock:' + #p0", segments = 4, segmentFilter = "#segment >")
		public void badFilter(String id) {
		}

	}

}
