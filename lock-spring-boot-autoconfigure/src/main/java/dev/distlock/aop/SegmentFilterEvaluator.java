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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

import dev.distlock.LogSafe;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;

/**
 * Evaluates {@code @DistributedLock(segmentFilter)} expressions: parsed once per method
 * and target class, then bound to one call's arguments and evaluated for each candidate
 * segment, whose index is the variable {@code #segment}.
 *
 * @author distlock
 */
final class SegmentFilterEvaluator extends CachedExpressionEvaluator {

	/**
	 * The variable that holds the candidate segment's index.
	 */
	static final String SEGMENT_VARIABLE = "segment";

	private final Map<ExpressionKey, Expression> filterCache = new ConcurrentHashMap<>(16);

	private final @Nullable BeanFactory beanFactory;

	SegmentFilterEvaluator(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Parse the segment filter of {@code operation}, if any, so that syntax errors
	 * surface when the method is first inspected.
	 * @param operation the lock operation
	 * @throws IllegalStateException if the expression cannot be parsed
	 */
	void validate(LockOperation operation) {
		String filter = operation.segmentFilter();
		if (filter == null) {
			return;
		}
		try {
			getExpression(this.filterCache, operation.methodKey(), filter);
		}
		catch (ParseException ex) {
			throw new IllegalStateException("Invalid @DistributedLock(segmentFilter = \"" + filter + "\") on "
					+ operation.method() + ": not a valid SpEL expression: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Return the segment filter of one call, which must be used by one thread at a time.
	 * @param operation the lock operation
	 * @param root the root object of the call
	 * @return whether a segment may serve the call; every one if the operation has no
	 * filter
	 */
	IntPredicate bind(LockOperation operation, LockExpressionRootObject root) {
		String filter = operation.segmentFilter();
		if (filter == null) {
			return (segment) -> true;
		}
		Expression expression = getExpression(this.filterCache, operation.methodKey(), filter);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method(),
				root.getArgs(), getParameterNameDiscoverer());
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		return (segment) -> {
			// Look an argument up first, so that the arguments are loaded before #segment
			context.lookupVariable(SEGMENT_VARIABLE);
			context.setVariable(SEGMENT_VARIABLE, segment);
			Object accepted;
			try {
				accepted = expression.getValue(context);
			}
			catch (EvaluationException ex) {
				throw new IllegalStateException("@DistributedLock(segmentFilter = \"" + LogSafe.escape(filter)
						+ "\") on " + operation.method() + " failed for #segment = " + segment + ": " + ex.getMessage(),
						ex);
			}
			if (accepted instanceof Boolean answer) {
				return answer;
			}
			throw new IllegalStateException("@DistributedLock(segmentFilter = \"" + LogSafe.escape(filter) + "\") on "
					+ operation.method() + " must be true or false, but was " + LogSafe.escape(accepted)
					+ " for #segment = " + segment);
		};
	}

}
