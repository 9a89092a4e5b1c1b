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

import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.distlock.autoconfigure.DistlockProperties.Store;
import dev.distlock.core.LockClient;
import dev.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Which lock stores the {@link ConditionalOnLockStore store configurations} found present
 * and what the absent ones miss, kept in the bean factory (as Spring Boot keeps its
 * condition evaluation report), and the startup check of the selection: with
 * {@code distlock.store} set, that store must be present; unset, at most one store may
 * be.
 *
 * @author distlock
 */
final class LockStoreSelection {

	private static final String BEAN_NAME = LockStoreSelection.class.getName();

	private final Set<Store> present = EnumSet.noneOf(Store.class);

	private final Map<Store, String> missing = new EnumMap<>(Store.class);

	private boolean applicationDefined;

	private LockStoreSelection() {
	}

	/**
	 * Return the selection of a bean factory, created on first use.
	 * @param beanFactory the bean factory
	 * @return its selection
	 */
	static LockStoreSelection get(ConfigurableListableBeanFactory beanFactory) {
		synchronized (beanFactory) {
			if (beanFactory.getSingleton(BEAN_NAME) instanceof LockStoreSelection selection) {
				return selection;
			}
			LockStoreSelection selection = new LockStoreSelection();
			beanFactory.registerSingleton(BEAN_NAME, selection);
			return selection;
		}
	}

	/**
	 * Return the store {@code distlock.store} selects.
	 * @param environment the environment
	 * @return the store, or {@code null} if the property is not set
	 */
	static @Nullable Store selected(Environment environment) {
		return Binder.get(environment).bind("distlock.store", Store.class).orElse(null);
	}

	/**
	 * Return whether the application defines its own {@link LockClient}, or a
	 * {@link LockStore} that no store configuration created; remembered, so that the
	 * check then accepts any selection.
	 * @param beanFactory the bean factory
	 * @return whether the store configurations back off
	 */
	boolean isApplicationDefined(ConfigurableListableBeanFactory beanFactory) {
		this.applicationDefined = this.applicationDefined
				|| BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beanFactory, LockClient.class, true,
						false).length > 0
				|| Arrays
					.stream(BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beanFactory, LockStore.class, true,
							false))
					.anyMatch((name) -> !isFromStoreConfiguration(beanFactory, name));
		return this.applicationDefined;
	}

	private static boolean isFromStoreConfiguration(ConfigurableListableBeanFactory beanFactory, String name) {
		if (!beanFactory.containsBeanDefinition(name)) {
			return false;
		}
		BeanDefinition definition = beanFactory.getBeanDefinition(name);
		return definition instanceof AnnotatedBeanDefinition annotated && annotated.getFactoryMethodMetadata() != null
				&& annotated.getMetadata().hasAnnotation(ConditionalOnLockStore.class.getName());
	}

	/**
	 * Record that a store is present.
	 * @param store the store
	 */
	void present(Store store) {
		this.present.add(store);
	}

	/**
	 * Record that a store is absent.
	 * @param store the store
	 * @param what what it misses
	 */
	void missing(Store store, String what) {
		this.missing.put(store, what);
	}

	/**
	 * Check that the selection names one store, unless the application defines its own.
	 * @param selected the store {@code distlock.store} selects, or {@code null}
	 * @throws LockStoreSelectionException if the selected store is absent, or if the
	 * property is unset and several stores are present
	 */
	void check(@Nullable Store selected) {
		if (this.applicationDefined) {
			return;
		}
		if (selected != null && !this.present.contains(selected)) {
			String name = OnLockStoreCondition.name(selected);
			String missing = this.missing.get(selected);
			throw new LockStoreSelectionException(
					"distlock.store is " + name + ", but the " + name + " store is not available"
							+ ((missing != null) ? ": " + missing : ""),
					"Add what the " + name + " store needs, or set distlock.store to another store ("
							+ names(EnumSet.allOf(Store.class)) + ").");
		}
		if (selected == null && this.present.size() > 1) {
			throw new LockStoreSelectionException(
					"Several lock stores are present (" + names(this.present)
							+ ") and distlock.store does not say which one to use",
					"Set distlock.store to one of " + names(this.present) + ".");
		}
	}

	private static String names(Set<Store> stores) {
		return stores.stream().map(OnLockStoreCondition::name).collect(Collectors.joining(", "));
	}

}
