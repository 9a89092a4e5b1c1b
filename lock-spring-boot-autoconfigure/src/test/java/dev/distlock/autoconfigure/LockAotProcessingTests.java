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

package dev.distlock.autoconfigure;

import java.lang.reflect.Method;
import java.util.Map;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.annotation.LockMode;
import dev.distlock.annotation.OnBusy;
import dev.distlock.aop.LockExpressionRootObject;
import dev.distlock.autoconfigure.DistlockEndpoint.LockStateDescriptor;
import dev.distlock.autoconfigure.DistlockEndpoint.Message;
import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Spring AOT processing of an application with distlock, as a build does it for a native
 * image or for {@code spring.aot.enabled=true}: the hints of the auto-configurations and
 * of the locked beans end up in the generated {@code RuntimeHints}.
 *
 * @author distlock
 */
class LockAotProcessingTests {

	@Test
	void registersRootObjectOfKeyExpressionsAndLockedBeansFallbackMethods() {
		RuntimeHints hints = processAheadOfTime(Map.of());
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockExpressionRootObject.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(OnBusy.class)
			.withMemberCategory(MemberCategory.DECLARED_FIELDS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockMode.class)
			.withMemberCategory(MemberCategory.DECLARED_FIELDS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockLossPolicy.class)
			.withMemberCategory(MemberCategory.DECLARED_FIELDS)).accepts(hints);
		Method fallback = ReflectionUtils.findMethod(LockedService.class, "busy", String.class,
				LockAcquisitionException.class);
		assertThat(fallback).isNotNull();
		assertThat(RuntimeHintsPredicates.reflection().onMethod(fallback).invoke()).accepts(hints);
	}

	@Test
	void registersEndpointAnswersForJsonWhenTheEndpointIsAvailable() throws Exception {
		RuntimeHints hints = processAheadOfTime(Map.of("management.endpoints.web.exposure.include", "distlock"));
		assertThat(RuntimeHintsPredicates.reflection().onType(LockStateDescriptor.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(LockStateDescriptor.class.getMethod("state")).invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(Message.class.getMethod("message")).invoke())
			.accepts(hints);
	}

	@Test
	void registersNoEndpointHintsWhenTheEndpointIsNotAvailable() {
		RuntimeHints hints = processAheadOfTime(Map.of());
		assertThat(RuntimeHintsPredicates.reflection().onType(LockStateDescriptor.class)).rejects(hints);
	}

	private RuntimeHints processAheadOfTime(Map<String, Object> properties) {
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(LockedApplication.class)), new InMemoryGeneratedFiles());
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
			context.register(LockedApplication.class);
			new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
		}
		return generationContext.getRuntimeHints();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
			LockEndpointAutoConfiguration.class })
	static class LockedApplication {

		@Bean
		LockStore lockStore() {
			// AOT processing creates no beans: any store will do
			return mock(LockStore.class);
		}

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	static class LockedService {

		@DistributedLock(key = "'job:' + #name", fallbackMethod = "busy")
		public @Nullable String run(String name) {
			return name;
		}

		public @Nullable String busy(String name, LockAcquisitionException ex) {
			return null;
		}

	}

}
