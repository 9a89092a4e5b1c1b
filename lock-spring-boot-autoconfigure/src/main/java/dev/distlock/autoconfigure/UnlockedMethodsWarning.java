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
import java.util.ArrayList;
import java.util.List;

import dev.distlock.annotation.DistributedLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Logs a warning once the singletons exist when beans have
 * {@link DistributedLock @DistributedLock} methods although distlock is disabled
 * ({@code distlock.enabled=false}): those methods run without any lock.
 *
 * @author distlock
 */
final class UnlockedMethodsWarning implements SmartInitializingSingleton, BeanFactoryAware {

	private static final Log logger = LogFactory.getLog(UnlockedMethodsWarning.class);

	private static final int LISTED = 10;

	private @Nullable ListableBeanFactory beanFactory;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.beanFactory = (beanFactory instanceof ListableBeanFactory listable) ? listable : null;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory == null) {
			return;
		}
		List<Method> locked = new ArrayList<>();
		for (String name : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = beanFactory.getType(name, false);
			if (type != null && AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
				locked.addAll(
						MethodIntrospector
							.selectMethods(ClassUtils.getUserClass(type),
									(MethodIntrospector.MetadataLookup<Boolean>) (method) -> AnnotatedElementUtils
										.hasAnnotation(method, DistributedLock.class) ? Boolean.TRUE : null)
							.keySet());
			}
		}
		if (!locked.isEmpty()) {
			logger.warn("distlock.enabled=false, so " + locked.size() + " @DistributedLock method(s) run without "
					+ "any lock: " + describe(locked));
		}
	}

	private static String describe(List<Method> methods) {
		List<String> names = methods.stream()
			.limit(LISTED)
			.map((method) -> ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName())
			.toList();
		return String.join(", ", names) + ((methods.size() > LISTED) ? ", ..." : "");
	}

}
