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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LogSafe;
import dev.distlock.store.support.LockKeyRules;
import dev.distlock.core.SegmentKeys;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.TypeConverter;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.InlineList;
import org.springframework.expression.spel.ast.OpPlus;
import org.springframework.expression.spel.ast.StringLiteral;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ObjectUtils;
import org.springframework.util.StringUtils;

/**
 * Evaluates {@code @DistributedLock} key expressions the way {@code @Cacheable} keys are
 * evaluated: parsed once per method and target class, then evaluated per call against the
 * arguments, a {@link LockExpressionRootObject} and the bean factory.
 * <p>
 * A key must name the same lock for the same input on every call, so the evaluation
 * refuses, with an {@link InvalidLockKeyException} before the method runs:
 * <ul>
 * <li>a value whose text is its identity (an array, an object without its own
 * {@code toString()}) turned into text anywhere in the expression (through
 * {@link KeyTextConverter}), or as the whole key or an element of a key collection;</li>
 * <li>{@code null} as an operand of the expression's top-level string concatenation
 * ({@code 'order:' + #userId}, {@code #tenant + ':' + #id}), as the whole key or as an
 * element of a key collection. A {@code null} handled inside an operand stays allowed:
 * {@code 'order:' + (#userId ?: 'guest')}, {@code #userId != null ? 'order:' + #userId :
 * 'guest'}. A concatenation nested elsewhere (in a method argument, a ternary branch,
 * parentheses on the right-hand side) is evaluated by SpEL alone, which writes
 * {@code null} as {@code "null"};</li>
 * <li>a blank key, malformed UTF-16, a key longer than the maximum key length or more
 * keys than the maximum ({@link LockKeyRules}).</li>
 * </ul>
 *
 * @author distlock
 */
final class LockKeyEvaluator extends CachedExpressionEvaluator {

	private final Map<ExpressionKey, Expression> keyCache = new ConcurrentHashMap<>(64);

	private final @Nullable BeanFactory beanFactory;

	private final int maxKeyLength;

	private final int maxKeys;

	private final SegmentFilterEvaluator segmentFilters;

	LockKeyEvaluator(@Nullable BeanFactory beanFactory) {
		this(beanFactory, LockKeyRules.DEFAULT_MAX_KEY_LENGTH, LockKeyRules.DEFAULT_MAX_KEYS);
	}

	LockKeyEvaluator(@Nullable BeanFactory beanFactory, int maxKeyLength, int maxKeys) {
		this.beanFactory = beanFactory;
		this.maxKeyLength = maxKeyLength;
		this.maxKeys = maxKeys;
		this.segmentFilters = new SegmentFilterEvaluator(beanFactory);
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
		if (operation.segmented()) {
			validateSegments(operation);
		}
	}

	/**
	 * Refuse segments the client would refuse, and a key expression that surely names
	 * several keys: a parameter declared as a collection or an array, or an inline list.
	 * Other expressions are checked at the call ({@link #segmentedKey}).
	 */
	private void validateSegments(LockOperation operation) {
		if (operation.segments() > this.maxKeys) {
			throw invalidSegments(operation, "is more than the maximum of " + this.maxKeys
					+ " keys per call (distlock.max-keys); use fewer segments or raise distlock.max-keys");
		}
		Expression expression = getExpression(this.keyCache, operation.methodKey(), operation.keyExpression());
		if (expression instanceof SpelExpression spel && namesSeveralKeys(operation, spel.getAST())) {
			throw invalidSegments(operation, "needs a key expression that names one item, but \""
					+ operation.keyExpression() + "\" names several keys (a collection or an array)");
		}
		this.segmentFilters.validate(operation);
	}

	private boolean namesSeveralKeys(LockOperation operation, SpelNode node) {
		if (node instanceof InlineList) {
			return true;
		}
		if (!(node instanceof VariableReference)) {
			return false;
		}
		String name = node.toStringAST().substring(1);
		Class<?>[] types = operation.method().getParameterTypes();
		String[] names = getParameterNameDiscoverer().getParameterNames(operation.method());
		for (int i = 0; i < types.length; i++) {
			boolean named = (names != null && name.equals(names[i])) || name.equals("p" + i) || name.equals("a" + i);
			if (named) {
				return types[i].isArray() || Collection.class.isAssignableFrom(types[i]);
			}
		}
		return false;
	}

	/**
	 * Evaluate the key of one call of a segmented method: the item whose segments are
	 * locked.
	 * @param operation the lock operation, segmented
	 * @param root the root object of the call
	 * @return the item's key
	 * @throws IllegalStateException if the expression names several keys
	 * @throws InvalidLockKeyException if the key is invalid
	 */
	String segmentedKey(LockOperation operation, LockExpressionRootObject root) {
		Object value = evaluate(operation, root);
		if (value instanceof Collection<?> || (value != null && value.getClass().isArray())) {
			throw invalidSegments(operation, "needs a key expression that names one item, but \""
					+ operation.keyExpression() + "\" gave a collection or an array of keys");
		}
		String key = requireKey(operation, "the key", value);
		if (key.contains(SegmentKeys.SEPARATOR)) {
			throw invalid(operation, "the key " + quote(key), "contains '" + SegmentKeys.SEPARATOR
					+ "', which a segmented lock's item key may not: it separates the item from the segment's index",
					null);
		}
		return key;
	}

	/**
	 * Return the segment filter of one call of a segmented method.
	 * @param operation the lock operation, segmented
	 * @param root the root object of the call
	 * @return the filter, to be used by one thread at a time
	 */
	IntPredicate segmentFilter(LockOperation operation, LockExpressionRootObject root) {
		return this.segmentFilters.bind(operation, root);
	}

	private static IllegalStateException invalidSegments(LockOperation operation, String reason) {
		return new IllegalStateException("Invalid @DistributedLock(segments = \"" + operation.segments() + "\") on "
				+ operation.method() + ": " + reason);
	}

	/**
	 * Evaluate the lock keys of one call: one key, or every element of a
	 * {@code Collection} or an array, distinct and in their natural order.
	 * @param operation the lock operation
	 * @param root the root object of the call
	 * @return the lock keys, not empty, none blank
	 * @throws InvalidLockKeyException if the expression fails or its value is not a valid
	 * key or set of keys
	 */
	List<String> keys(LockOperation operation, LockExpressionRootObject root) {
		Object value = evaluate(operation, root);
		if (value instanceof Collection<?> || (value != null && value.getClass().isArray())) {
			Collection<?> elements = (value instanceof Collection<?> collection) ? collection
					: Arrays.asList(ObjectUtils.toObjectArray(value));
			Set<String> keys = new TreeSet<>();
			for (Object element : elements) {
				keys.add(requireKey(operation, "an element of the key collection", element));
			}
			String problem = LockKeyRules.countProblem(keys.size(), this.maxKeys);
			if (problem != null) {
				throw invalid(operation, "the key collection", "holds " + problem, null);
			}
			return List.copyOf(keys);
		}
		return List.of(requireKey(operation, "the key", value));
	}

	private @Nullable Object evaluate(LockOperation operation, LockExpressionRootObject root) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method(),
				root.getArgs(), getParameterNameDiscoverer());
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		context.setTypeConverter(new KeyTextConverter(context.getTypeConverter(), operation));
		Object value;
		try {
			value = evaluate(getExpression(this.keyCache, operation.methodKey(), operation.keyExpression()), context,
					operation);
		}
		catch (EvaluationException ex) {
			InvalidLockKeyException invalid = invalidKeyCause(ex);
			if (invalid != null) {
				throw invalid;
			}
			throw invalid(operation, "the expression", "could not be evaluated: " + ex.getMessage(), ex);
		}
		return value;
	}

	/**
	 * Evaluate the expression; a top-level string concatenation operand by operand, so
	 * that a {@code null} operand is refused instead of becoming {@code "null"}.
	 */
	private static @Nullable Object evaluate(Expression expression, EvaluationContext context,
			LockOperation operation) {
		List<SpelNode> operands = (expression instanceof SpelExpression spel) ? concatenated(spel.getAST()) : null;
		if (operands == null) {
			return expression.getValue(context);
		}
		ExpressionState state = new ExpressionState(context);
		TypeConverter converter = context.getTypeConverter();
		TypeDescriptor string = TypeDescriptor.valueOf(String.class);
		StringBuilder key = new StringBuilder();
		for (SpelNode operand : operands) {
			TypedValue value = operand.getTypedValue(state);
			Object part = value.getValue();
			String problem = KeyValues.problem(part);
			if (problem != null) {
				throw invalid(operation, operand.toStringAST(), problem, null);
			}
			Object text = (part instanceof String) ? part : converter.canConvert(value.getTypeDescriptor(), string)
					? converter.convertValue(part, value.getTypeDescriptor(), string) : part;
			String operandKey = String.valueOf(text);
			if (!(operand instanceof StringLiteral) && !StringUtils.hasText(operandKey)) {
				throw invalid(operation, operand.toStringAST(),
						"is " + (operandKey.isEmpty() ? "empty" : "blank (" + quote(operandKey) + ")")
								+ ", so every such call would share one lock",
						null);
			}
			key.append(operandKey);
		}
		return key.toString();
	}

	/**
	 * Return the operands of a chain of {@code +} whose every step joins text (its first
	 * or second operand is a string literal), in order, or {@code null} if {@code node}
	 * is not such a chain. Only the left side is flattened: {@code a + (b + c)} has the
	 * operands {@code a} and {@code (b + c)}, as SpEL evaluates it.
	 */
	private static @Nullable List<SpelNode> concatenated(SpelNode node) {
		if (!(node instanceof OpPlus) || node.getChildCount() != 2) {
			return null;
		}
		List<SpelNode> operands = new ArrayList<>();
		SpelNode current = node;
		while (current instanceof OpPlus && current.getChildCount() == 2) {
			operands.add(0, current.getChild(1));
			current = current.getChild(0);
		}
		operands.add(0, current);
		boolean joinsText = operands.get(0) instanceof StringLiteral || operands.get(1) instanceof StringLiteral;
		return joinsText ? operands : null;
	}

	private String requireKey(LockOperation operation, String part, @Nullable Object value) {
		if (value == null) {
			throw invalid(operation, part, "is null", null);
		}
		String problem = KeyValues.problem(value);
		if (problem != null) {
			throw invalid(operation, part, problem, null);
		}
		String key = value.toString();
		problem = LockKeyRules.keyProblem(key, this.maxKeyLength);
		if (problem != null) {
			throw invalid(operation, part + " " + quote(key), problem, null);
		}
		return key;
	}

	private static @Nullable InvalidLockKeyException invalidKeyCause(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidLockKeyException invalid) {
				return invalid;
			}
		}
		return null;
	}

	private static String quote(String key) {
		return "'" + LogSafe.escape((key.length() > 64) ? key.substring(0, 64) + "..." : key) + "'";
	}

	private static InvalidLockKeyException invalid(LockOperation operation, String part, String problem,
			@Nullable Throwable cause) {
		return new InvalidLockKeyException(operation.method(), operation.keyExpression(), part, problem, cause);
	}

}
