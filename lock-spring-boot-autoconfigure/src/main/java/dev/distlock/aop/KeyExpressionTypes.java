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

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * The types whose members a key expression reads by reflection, as far as they can be
 * told before it runs: the parameter types of the locked method, the types reached
 * through chains of properties and methods from a parameter ({@code #order.customer.id}
 * reaches the type of {@code customer}), and the types of referenced beans
 * ({@code @tenants.current()}). A chain whose next type cannot be told statically (an
 * indexer, an overloaded method, a value typed {@code Object}) is followed no further;
 * the types are the declared ones, not the subclasses that values may have at run time.
 *
 * @author distlock
 * @since 0.1.0
 */
final class KeyExpressionTypes {

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	private static final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private static final Pattern INDEXED_PARAMETER = Pattern.compile("[ap](\\d+)");

	private final Method method;

	private final @Nullable String[] names;

	private final BeanFactory beanFactory;

	private final Set<Class<?>> types = new LinkedHashSet<>();

	private KeyExpressionTypes(Method method, BeanFactory beanFactory) {
		this.method = method;
		String[] discovered = parameterNames.getParameterNames(method);
		this.names = (discovered != null) ? discovered : new String[method.getParameterCount()];
		this.beanFactory = beanFactory;
	}

	/**
	 * Return the types that evaluating {@code expression} for calls to {@code method} may
	 * read members of, primitives and arrays excluded (arrays as their element type).
	 * @param method the locked method
	 * @param expression its key expression
	 * @param beanFactory the bean factory that resolves bean references
	 * @return the types
	 * @throws org.springframework.expression.ParseException if the expression is invalid
	 */
	static Set<Class<?>> of(Method method, String expression, BeanFactory beanFactory) {
		KeyExpressionTypes collector = new KeyExpressionTypes(method, beanFactory);
		for (Class<?> parameterType : method.getParameterTypes()) {
			collector.add(parameterType);
		}
		SpelExpression parsed = (SpelExpression) parser.parseExpression(expression);
		collector.visit(parsed.getAST());
		return collector.types;
	}

	private void visit(SpelNode node) {
		if (node instanceof CompoundExpression) {
			followChain(node);
		}
		else if (node instanceof BeanReference reference) {
			add(beanType(reference));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			visit(node.getChild(i));
		}
	}

	private void followChain(SpelNode chain) {
		Class<?> type = start(chain.getChild(0));
		for (int i = 1; i < chain.getChildCount() && type != null; i++) {
			type = add(memberType(type, chain.getChild(i)));
		}
	}

	private @Nullable Class<?> start(SpelNode first) {
		if (first instanceof VariableReference variable) {
			return parameterType(variable.toStringAST().substring(1));
		}
		if (first instanceof BeanReference reference) {
			return beanType(reference);
		}
		return null;
	}

	private @Nullable Class<?> parameterType(String variable) {
		Class<?>[] parameterTypes = this.method.getParameterTypes();
		for (int i = 0; i < parameterTypes.length; i++) {
			if (variable.equals(this.names[i])) {
				return parameterTypes[i];
			}
		}
		Matcher indexed = INDEXED_PARAMETER.matcher(variable);
		if (indexed.matches()) {
			int index = Integer.parseInt(indexed.group(1));
			return (index < parameterTypes.length) ? parameterTypes[index] : null;
		}
		return null;
	}

	private @Nullable Class<?> beanType(BeanReference reference) {
		String name = reference.getName();
		if (name.startsWith("&") || !this.beanFactory.containsBean(name)) {
			return null;
		}
		return this.beanFactory.getType(name, false);
	}

	private static @Nullable Class<?> memberType(Class<?> type, SpelNode member) {
		if (member instanceof PropertyOrFieldReference property) {
			return propertyType(type, property.getName());
		}
		if (member instanceof MethodReference reference) {
			return methodType(type, reference.getName(), reference.getChildCount());
		}
		return null;
	}

	private static @Nullable Class<?> propertyType(Class<?> type, String name) {
		String capitalized = StringUtils.capitalize(name);
		for (String accessor : new String[] { "get" + capitalized, "is" + capitalized, name }) {
			Method method = ClassUtils.getMethodIfAvailable(type, accessor);
			if (method != null && Modifier.isPublic(method.getModifiers()) && method.getReturnType() != void.class) {
				return method.getReturnType();
			}
		}
		Field field = ReflectionUtils.findField(type, name);
		return (field != null && Modifier.isPublic(field.getModifiers())) ? field.getType() : null;
	}

	private static @Nullable Class<?> methodType(Class<?> type, String name, int argumentCount) {
		Class<?> found = null;
		for (Method method : type.getMethods()) {
			if (method.getName().equals(name) && method.getParameterCount() == argumentCount) {
				if (found != null && found != method.getReturnType()) {
					return null;
				}
				found = method.getReturnType();
			}
		}
		return found;
	}

	private @Nullable Class<?> add(@Nullable Class<?> type) {
		if (type == null) {
			return null;
		}
		Class<?> elementType = type;
		while (elementType.isArray()) {
			elementType = elementType.getComponentType();
		}
		if (elementType.isPrimitive() || elementType == Object.class) {
			return null;
		}
		this.types.add(elementType);
		// an array's elements are reached through an indexer, which is not followed
		return (elementType == type) ? type : null;
	}

}
