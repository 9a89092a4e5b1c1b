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

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.util.ObjectUtils;
import org.springframework.util.StringUtils;

/**
 * Evaluates {@code @DistributedLock} key expressions the way {@code @Cacheable} keys are
 * evaluated: parsed once per method and target class, then evaluated per call against the
 * arguments, a {@link LockExpressionRootObject} and the bean factory.
 *
 * @author distlock
 */
final class LockKeyEvaluator extends CachedExpressionEvaluator {

	private final Map<ExpressionKey, Expression> keyCache = new ConcurrentHashMap<>(64);

	private final @Nullable BeanFactory beanFactory;

	LockKeyEvaluator(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Parse the key expression of {@code operation}, so that syntax errors surface when
	 * the method is first inspected.
	 * @param operation the lock operation
	 * @throws IllegalStateException if the expression is blank or cannot be parsed
	 */
	void validate(LockOperation operation) {
		if (!StringUtils.hasText(operation.keyExpression())) {
			throw new IllegalStateException("@DistributedLock(key) on " + operation.method() + " must not be blank");
		}
		try {
			getExpression(this.keyCache, operation.methodKey(), operation.keyExpression());
		}
		catch (ParseException ex) {
			throw new IllegalStateException("@DistributedLock(key = \"" + operation.keyExpression() + "\") on "
					+ operation.method() + " is not a valid SpEL expression: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Evaluate the lock keys of one call: one key, or every element of a
	 * {@code Collection} or an array, distinct and in their natural order.
	 * @param operation the lock operation
	 * @param root the root object of the call
	 * @return the lock keys, not empty, none blank
	 * @throws IllegalArgumentException if the expression fails or yields {@code null}, a
	 * blank key, an empty collection or a collection with a {@code null} or blank element
	 */
	List<String> keys(LockOperation operation, LockExpressionRootObject root) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method(),
				root.getArgs(), getParameterNameDiscoverer());
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		Object value;
		try {
			value = getExpression(this.keyCache, operation.methodKey(), operation.keyExpression()).getValue(context);
		}
		catch (EvaluationException ex) {
			throw new IllegalArgumentException(describe(operation) + " could not be evaluated: " + ex.getMessage(), ex);
		}
		if (value instanceof Collection<?> || (value != null && value.getClass().isArray())) {
			Collection<?> elements = (value instanceof Collection<?> collection) ? collection
					: Arrays.asList(ObjectUtils.toObjectArray(value));
			if (elements.isEmpty()) {
				throw new IllegalArgumentException(describe(operation)
						+ " evaluated to no key at all (an empty collection); the method was not called");
			}
			Set<String> keys = new TreeSet<>();
			for (Object element : elements) {
				keys.add(requireText(operation, (element != null) ? element.toString() : null));
			}
			return List.copyOf(keys);
		}
		return List.of(requireText(operation, (value != null) ? value.toString() : null));
	}

	private static String requireText(LockOperation operation, @Nullable String key) {
		if (!StringUtils.hasText(key)) {
			throw new IllegalArgumentException(describe(operation) + " evaluated to "
					+ ((key != null) ? "a blank key '" + key + "'" : "null") + "; the method was not called");
		}
		return key;
	}

	private static String describe(LockOperation operation) {
		return "Lock key expression \"" + operation.keyExpression() + "\" of " + operation.method();
	}

}
