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
import java.util.Map;
import java.util.Set;

import dev.distlock.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Registers the reflection that the advice needs at run time for each bean with
 * {@link DistributedLock @DistributedLock} methods, for a native image: the locked method
 * (its parameter names, read by the key expression), the public methods of the types the
 * key expression reads ({@link KeyExpressionTypes}: parameter types, types reached
 * through properties such as {@code #order.customer.id}, referenced beans), its
 * {@code fallbackMethod} (invoked by reflection) and the public methods of the bean's
 * interfaces (a JDK proxy invokes the target through them). Listed in
 * {@code META-INF/spring/aot.factories}.
 *
 * @author distlock
 * @since 0.1.0
 */
class DistributedLockBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(beanClass, DistributedLock.class)) {
			return null;
		}
		Map<Method, DistributedLock> lockedMethods = MethodIntrospector.selectMethods(beanClass,
				(MethodIntrospector.MetadataLookup<DistributedLock>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, DistributedLock.class));
		return lockedMethods.isEmpty() ? null
				: new LockedBeanHints(beanClass, lockedMethods, registeredBean.getBeanFactory());
	}

	/**
	 * The reflection hints of one bean with locked methods.
	 */
	private static final class LockedBeanHints implements BeanRegistrationAotContribution {

		private final Class<?> beanClass;

		private final Map<Method, DistributedLock> lockedMethods;

		private final BeanFactory beanFactory;

		LockedBeanHints(Class<?> beanClass, Map<Method, DistributedLock> lockedMethods, BeanFactory beanFactory) {
			this.beanClass = beanClass;
			this.lockedMethods = lockedMethods;
			this.beanFactory = beanFactory;
		}

		@Override
		public void applyTo(GenerationContext generationContext, BeanRegistrationCode beanRegistrationCode) {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			this.lockedMethods.forEach((method, annotation) -> {
				reflection.registerMethod(method, ExecutableMode.INTROSPECT);
				for (Class<?> type : expressionTypes(method, annotation.key())) {
					reflection.registerType(type, MemberCategory.INVOKE_PUBLIC_METHODS);
				}
				if (StringUtils.hasText(annotation.fallbackMethod())) {
					Method fallback = FallbackMethod.resolve(method, this.beanClass, annotation.fallbackMethod())
						.method();
					reflection.registerMethod(fallback, ExecutableMode.INVOKE);
				}
			});
			for (Class<?> proxyInterface : ClassUtils.getAllInterfacesForClassAsSet(this.beanClass)) {
				reflection.registerType(proxyInterface, MemberCategory.INVOKE_PUBLIC_METHODS);
			}
		}

		private Set<Class<?>> expressionTypes(Method method, String key) {
			if (!StringUtils.hasText(key)) {
				return Set.of(); // refused at startup
			}
			try {
				return KeyExpressionTypes.of(method, key, this.beanFactory);
			}
			catch (ParseException ex) {
				throw new IllegalStateException("@DistributedLock(key = \"" + key + "\") on " + method
						+ " is not a valid SpEL expression: " + ex.getMessage(), ex);
			}
		}

	}

}
