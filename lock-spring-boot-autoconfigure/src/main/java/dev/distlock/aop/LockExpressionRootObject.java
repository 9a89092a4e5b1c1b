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

import org.jspecify.annotations.Nullable;

/**
 * Root object of {@code @DistributedLock} key expressions: {@code #root.method},
 * {@code #root.methodName}, {@code #root.target}, {@code #root.targetClass} and
 * {@code #root.args}.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class LockExpressionRootObject {

	private final Method method;

	private final Object target;

	private final Class<?> targetClass;

	private final @Nullable Object[] args;

	LockExpressionRootObject(Method method, Object target, Class<?> targetClass, @Nullable Object[] args) {
		this.method = method;
		this.target = target;
		this.targetClass = targetClass;
		this.args = args;
	}

	/**
	 * Return the called method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return the name of the called method.
	 * @return the method name
	 */
	public String getMethodName() {
		return this.method.getName();
	}

	/**
	 * Return the bean instance the method is called on (not its proxy).
	 * @return the target
	 */
	public Object getTarget() {
		return this.target;
	}

	/**
	 * Return the class of the target.
	 * @return the target class
	 */
	public Class<?> getTargetClass() {
		return this.targetClass;
	}

	/**
	 * Return the arguments of the call.
	 * @return the arguments
	 */
	public @Nullable Object[] getArgs() {
		return this.args;
	}

}
