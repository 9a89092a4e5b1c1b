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

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Method;
import java.util.List;

import dev.distlock.LockAcquisitionException;
import dev.distlock.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.Mockito.mock;

/**
 * The reflection hints {@link DistributedLockBeanRegistrationAotProcessor} registers for
 * beans with {@code @DistributedLock} methods, as a native image needs them.
 *
 * @author distlock
 */
class DistributedLockBeanRegistrationAotProcessorTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final DefaultGenerationContext generationContext = new DefaultGenerationContext(
			new ClassNameGenerator(ClassName.get(getClass())), new InMemoryGeneratedFiles());

	private final DistributedLockBeanRegistrationAotProcessor processor = new DistributedLockBeanRegistrationAotProcessor();

	@Test
	void registersLockedMethodForItsParameterNamesAndItsParameterTypesForTheKeyExpression() {
		RuntimeHints hints = process(OrderService.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(OrderService.class, "place")).introspect())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Order.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Customer.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("reached through #order.customer")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Receipt.class)).as("parameter of an unlocked method")
			.rejects(hints);
	}

	@Test
	void registersTypesReachedThroughIndexedParametersGettersAndReferencedBeans() {
		this.beanFactory.registerBeanDefinition("tenants", new RootBeanDefinition(Tenants.class));
		RuntimeHints hints = process(ShippingService.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Region.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("reached through #a0.region").accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Tenants.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("referenced as @tenants").accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Tenant.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("reached through @tenants.current()")
			.accepts(hints);
	}

	@Test
	void failsAotProcessingWhenKeyExpressionIsInvalid() {
		BeanRegistrationAotContribution contribution = this.processor
			.processAheadOfTime(register(InvalidKeyService.class));
		assertThat(contribution).isNotNull();
		assertThatIllegalStateException()
			.isThrownBy(() -> contribution.applyTo(this.generationContext, mock(BeanRegistrationCode.class)))
			.withMessageContaining("@DistributedLock(key = \"'order:' +\")")
			.withMessageContaining("is not a valid SpEL expression");
	}

	@Test
	void registersFallbackMethodForInvocation() {
		RuntimeHints hints = process(OrderService.class);
		Method fallback = ReflectionUtils.findMethod(OrderService.class, "placeLater", Order.class, long.class,
				LockAcquisitionException.class);
		assertThat(fallback).isNotNull();
		assertThat(RuntimeHintsPredicates.reflection().onMethod(fallback).invoke()).accepts(hints);
	}

	@Test
	void registersMethodsLockedThroughMetaAnnotation() {
		RuntimeHints hints = process(MetaAnnotatedService.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(MetaAnnotatedService.class, "cleanUp"))
			.introspect()).accepts(hints);
	}

	@Test
	void registersInterfacesOfLockedBeanForInvocationThroughJdkProxy() {
		RuntimeHints hints = process(InterfaceService.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(Jobs.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(InterfaceService.class, "run")).introspect())
			.accepts(hints);
	}

	@Test
	void contributesNothingForBeanWithoutLockedMethods() {
		assertThat(this.processor.processAheadOfTime(register(Customer.class))).isNull();
	}

	@Test
	void failsAotProcessingWhenFallbackMethodDoesNotExist() {
		BeanRegistrationAotContribution contribution = this.processor.processAheadOfTime(register(BrokenService.class));
		assertThat(contribution).isNotNull();
		assertThatIllegalStateException()
			.isThrownBy(() -> contribution.applyTo(this.generationContext, mock(BeanRegistrationCode.class)))
			.withMessageContaining("fallbackMethod = \"missing\"")
			.withMessageContaining(BrokenService.class.getName());
	}

	private RuntimeHints process(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = this.processor.processAheadOfTime(register(beanClass));
		assertThat(contribution).isNotNull();
		contribution.applyTo(this.generationContext, mock(BeanRegistrationCode.class));
		return this.generationContext.getRuntimeHints();
	}

	private RegisteredBean register(Class<?> beanClass) {
		this.beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
		return RegisteredBean.of(this.beanFactory, "bean");
	}

	private static Method method(Class<?> type, String name) {
		return List.of(type.getDeclaredMethods())
			.stream()
			.filter((candidate) -> candidate.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	record Customer(long id) {

	}

	record Order(Customer customer, long amount) {

	}

	static class OrderService {

		@DistributedLock(key = "'order:' + #order.customer.id", fallbackMethod = "placeLater")
		public @Nullable String place(Order order, long attempt) {
			return "placed";
		}

		public @Nullable String placeLater(Order order, long attempt, LockAcquisitionException ex) {
			return null;
		}

		public void unlocked(Receipt receipt) {
		}

	}

	record Receipt(long id) {

	}

	public static class Region {

		public String getName() {
			return "eu";
		}

	}

	public static class Shipment {

		public Region getRegion() {
			return new Region();
		}

	}

	record Tenant(String id) {

	}

	public static class Tenants {

		public Tenant current() {
			return new Tenant("t1");
		}

	}

	static class ShippingService {

		@DistributedLock(key = "@tenants.current().id() + ':' + #a0.region.name")
		public void ship(Shipment shipment) {
		}

	}

	static class InvalidKeyService {

		@DistributedLock(key = "'order:' +")
		public void work() {
		}

	}

	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(key = "'cleanup'")
	@interface CleanupLock {

	}

	static class MetaAnnotatedService {

		@CleanupLock
		public void cleanUp() {
		}

	}

	interface Jobs {

		void run(String job);

	}

	static class InterfaceService implements Jobs {

		@Override
		@DistributedLock(key = "#job")
		public void run(String job) {
		}

	}

	static class BrokenService {

		@DistributedLock(key = "'x'", fallbackMethod = "missing")
		public void work() {
		}

	}

}
