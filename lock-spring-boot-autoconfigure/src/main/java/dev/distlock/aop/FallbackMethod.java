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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.distlock.LockAcquisitionException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The {@code fallbackMethod} of a {@code @DistributedLock} method: same parameters,
 * optionally followed by one that accepts the {@link LockAcquisitionException}.
 *
 * @author distlock
 */
final class FallbackMethod {

	private final Method method;

	private final boolean passesException;

	private FallbackMethod(Method method, boolean passesException) {
		this.method = method;
		this.passesException = passesException;
		ReflectionUtils.makeAccessible(method);
	}

	/**
	 * Find the fallback named {@code name} for {@code annotated} in {@code targetClass},
	 * preferring the variant that takes the exception.
	 * @param annotated the annotated method
	 * @param targetClass the class of the bean
	 * @param name the fallback method name
	 * @return the fallback
	 * @throws IllegalStateException if there is no suitable method
	 */
	static FallbackMethod resolve(Method annotated, Class<?> targetClass, String name) {
		Class<?>[] parameterTypes = annotated.getParameterTypes();
		List<Method> candidates = new ArrayList<>();
		ReflectionUtils.doWithMethods(targetClass, candidates::add, (method) -> method.getName().equals(name)
				&& !Modifier.isStatic(method.getModifiers()) && returnTypeFits(annotated, method));
		for (Method candidate : candidates) {
			Class<?>[] types = candidate.getParameterTypes();
			if (types.length == parameterTypes.length + 1
					&& Arrays.equals(types, 0, parameterTypes.length, parameterTypes, 0, parameterTypes.length)
					&& types[parameterTypes.length].isAssignableFrom(LockAcquisitionException.class)) {
				return new FallbackMethod(candidate, true);
			}
		}
		for (Method candidate : candidates) {
			if (Arrays.equals(candidate.getParameterTypes(), parameterTypes)) {
				return new FallbackMethod(candidate, false);
			}
		}
		String parameters = Arrays.stream(parameterTypes).map(Class::getSimpleName).toList().toString();
		throw new IllegalStateException("@DistributedLock(fallbackMethod = \"" + name + "\") on " + annotated
				+ ": no instance method " + name + " in " + targetClass.getName() + " with parameters " + parameters
				+ " (optionally followed by a LockAcquisitionException parameter) returning "
				+ annotated.getReturnType().getName());
	}

	private static boolean returnTypeFits(Method annotated, Method candidate) {
		return annotated.getReturnType() == void.class
				|| ClassUtils.isAssignable(annotated.getReturnType(), candidate.getReturnType());
	}

	/**
	 * Call the fallback on {@code target}.
	 * @param target the bean instance
	 * @param arguments the arguments of the annotated method's call
	 * @param failure why the lock was not acquired
	 * @return the fallback's result
	 * @throws Throwable what the fallback throws
	 */
	@Nullable Object invoke(Object target, @Nullable Object[] arguments, LockAcquisitionException failure) throws Throwable {
		@Nullable Object[] fallbackArguments = arguments;
		if (this.passesException) {
			fallbackArguments = Arrays.copyOf(arguments, arguments.length + 1);
			fallbackArguments[arguments.length] = failure;
		}
		try {
			return this.method.invoke(target, fallbackArguments);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	/**
	 * Return the fallback method.
	 * @return the method
	 */
	Method method() {
		return this.method;
	}

	@Override
	public String toString() {
		return this.method.toString();
	}

}
