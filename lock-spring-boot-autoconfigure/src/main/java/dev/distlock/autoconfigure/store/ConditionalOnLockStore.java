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

import dev.distlock.autoconfigure.LockAutoConfiguration;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.distlock.autoconfigure.DistlockProperties.Store;

import org.springframework.context.annotation.Conditional;

/**
 * Marks the configuration of one lock store: it matches when {@code distlock.store} names
 * that store, or when the property is unset and the store is present (its
 * {@link #classes()} on the classpath and a single {@link #connection()} bean, a primary
 * one, or one marked with the {@link #qualifier()}). Either way it backs off when the
 * application defines its own {@code LockStore} or {@code LockClient}. The in-memory
 * store is never chosen without the property.
 * <p>
 * The store's presence is checked here rather than with {@code @ConditionalOnClass} and
 * {@code @ConditionalOnSingleCandidate} so that what is missing is known: when the
 * property names a store that is not present, or is unset while several stores are
 * present, startup fails saying so (see {@link LockStoreSelection}). Class names are
 * strings, read without loading the classes.
 * <p>
 * A store plugs in with one configuration class carrying this annotation, imported by
 * {@link LockAutoConfiguration}.
 *
 * @author distlock
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnLockStoreCondition.class)
public @interface ConditionalOnLockStore {

	/**
	 * The store the annotated configuration creates.
	 * @return the store
	 */
	Store value();

	/**
	 * Classes of the store's module and of its backend client, all of which must be
	 * present.
	 * @return the fully qualified class names
	 */
	String[] classes() default {};

	/**
	 * Type of the backend connection bean the store needs: a single bean, or a single
	 * primary one, must exist. Empty when the store needs none.
	 * @return the fully qualified type name, or empty
	 */
	String connection() default "";

	/**
	 * A property that stands in for the {@link #connection()} bean: when it is set, the
	 * store builds its own connection from it and needs no bean. Empty when there is
	 * none.
	 * @return the property's name, for example {@code distlock.zookeeper.connect-string}
	 */
	String connectionProperty() default "";

	/**
	 * Qualifier annotation that marks the {@link #connection()} bean to use among several
	 * when none is the primary one. Empty when the store has none.
	 * @return the fully qualified annotation name, or empty
	 */
	String qualifier() default "";

	/**
	 * What to add to the application when the {@link #classes()} are missing.
	 * @return the dependency to add, for example a starter
	 */
	String dependency() default "";

}
