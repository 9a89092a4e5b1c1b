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

package dev.distlock.autoconfigure.store;

import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Predicate;

import dev.distlock.autoconfigure.DistlockProperties.Store;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The condition of {@link ConditionalOnLockStore}: whether {@code distlock.store} selects
 * the annotated store, or, unset, whether the store is present. Records what it found in
 * the {@link LockStoreSelection} of the bean factory.
 *
 * @author distlock
 */
final class OnLockStoreCondition extends SpringBootCondition implements ConfigurationCondition {

	@Override
	public ConfigurationPhase getConfigurationPhase() {
		return ConfigurationPhase.REGISTER_BEAN;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		if (beanFactory == null) {
			throw new IllegalStateException("@ConditionalOnLockStore needs a ConfigurableListableBeanFactory");
		}
		MergedAnnotation<ConditionalOnLockStore> annotation = metadata.getAnnotations()
			.get(ConditionalOnLockStore.class);
		Store store = annotation.getEnum("value", Store.class);
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnLockStore.class, name(store));
		LockStoreSelection selection = LockStoreSelection.get(beanFactory);
		if (selection.isApplicationDefined(beanFactory)) {
			return ConditionOutcome.noMatch(message.because("the application defines its own LockStore or LockClient"));
		}
		Store selected = LockStoreSelection.selected(context.getEnvironment());
		if (selected != null && selected != store) {
			return ConditionOutcome.noMatch(message.because("distlock.store is " + name(selected)));
		}
		if (selected == null && store == Store.MEMORY) {
			return ConditionOutcome.noMatch(message.because("distlock.store is not set"));
		}
		String missing = missing(annotation, context, beanFactory);
		if (missing != null) {
			selection.missing(store, missing);
			return ConditionOutcome.noMatch(message.because(missing));
		}
		selection.present(store);
		return ConditionOutcome
			.match(message.because((selected != null) ? "distlock.store is " + name(store) : "the store is present"));
	}

	private static @Nullable String missing(MergedAnnotation<ConditionalOnLockStore> annotation,
			ConditionContext context, ConfigurableListableBeanFactory beanFactory) {
		String dependency = annotation.getString("dependency");
		for (String className : annotation.getStringArray("classes")) {
			if (!ClassUtils.isPresent(className, context.getClassLoader())) {
				return "class " + className + " is not on the classpath"
						+ (dependency.isEmpty() ? "" : " (add " + dependency + ")");
			}
		}
		String connection = annotation.getString("connection");
		String connectionProperty = annotation.getString("connectionProperty");
		if (connection.isEmpty() || (!connectionProperty.isEmpty()
				&& StringUtils.hasText(context.getEnvironment().getProperty(connectionProperty)))) {
			return null;
		}
		if (!ClassUtils.isPresent(connection, context.getClassLoader())) {
			return "class " + connection + " is not on the classpath";
		}
		Class<?> type = ClassUtils.resolveClassName(connection, context.getClassLoader());
		String[] names = BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beanFactory, type, true, false);
		if (names.length == 0) {
			return "there is no " + connection + " bean"
					+ (connectionProperty.isEmpty() ? "" : " and " + connectionProperty + " is not set");
		}
		if (names.length > 1 && count(beanFactory, names, BeanDefinition::isPrimary) != 1
				&& count(beanFactory, names, (definition) -> !definition.isFallback()) != 1
				&& qualified(annotation.getString("qualifier"), context, beanFactory, names) != 1) {
			return "there are several " + connection + " beans " + Arrays.toString(names)
					+ " and none is the primary one" + (annotation.getString("qualifier").isEmpty() ? ""
							: " or the one marked @" + ClassUtils.getShortName(annotation.getString("qualifier")));
		}
		return null;
	}

	/**
	 * Return how many of the beans carry the qualifier annotation.
	 */
	private static long qualified(String qualifier, ConditionContext context,
			ConfigurableListableBeanFactory beanFactory, String[] names) {
		if (qualifier.isEmpty() || !ClassUtils.isPresent(qualifier, context.getClassLoader())) {
			return 0;
		}
		@SuppressWarnings("unchecked")
		Class<? extends Annotation> type = (Class<? extends Annotation>) ClassUtils.resolveClassName(qualifier,
				context.getClassLoader());
		return Arrays.stream(names)
			.filter((name) -> beanFactory.findAnnotationOnBean(name, type, false) != null)
			.count();
	}

	/**
	 * Return how many of the beans have a definition that matches.
	 */
	private static long count(ConfigurableListableBeanFactory beanFactory, String[] names,
			Predicate<BeanDefinition> predicate) {
		return Arrays.stream(names).filter((name) -> {
			try {
				return predicate.test(beanFactory.getMergedBeanDefinition(name));
			}
			catch (NoSuchBeanDefinitionException ex) {
				// a singleton registered without a definition: neither primary nor
				// fallback
				return predicate.test(new RootBeanDefinition());
			}
		}).count();
	}

	static String name(Store store) {
		return store.name().toLowerCase(Locale.ROOT);
	}

}
