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
import java.lang.reflect.Modifier;
import java.time.DateTimeException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.annotation.LockMode;
import dev.distlock.annotation.OnBusy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@code @DistributedLock} on methods and turns it into validated
 * {@link LockOperation lock operations}, cached per method and target class. A class is
 * validated as a whole the first time it is inspected, so that a bad attribute fails the
 * application at startup rather than at the first call.
 *
 * @author distlock
 */
final class LockOperationSource {

	private static final Log logger = LogFactory.getLog(LockOperationSource.class);

	private final Map<AnnotatedElementKey, Optional<LockOperation>> operations = new ConcurrentHashMap<>(256);

	private final Map<Class<?>, Boolean> lockedClasses = new ConcurrentHashMap<>(256);

	private final Duration defaultWaitTime;

	private final @Nullable BeanFactory beanFactory;

	private final LockKeyEvaluator evaluator;

	private final Set<Method> warnedScheduledMethods = ConcurrentHashMap.newKeySet();

	LockOperationSource(Duration defaultWaitTime, @Nullable BeanFactory beanFactory, LockKeyEvaluator evaluator) {
		this.defaultWaitTime = defaultWaitTime;
		this.beanFactory = beanFactory;
		this.evaluator = evaluator;
	}

	/**
	 * Return whether {@code targetClass} has a {@code @DistributedLock} method,
	 * validating all of them on the first call for that class.
	 * @param targetClass the class of a bean
	 * @return whether any method is locked
	 * @throws IllegalStateException if an annotation is invalid
	 */
	boolean hasLockedMethods(Class<?> targetClass) {
		Boolean locked = this.lockedClasses.get(targetClass);
		if (locked == null) {
			locked = inspect(targetClass);
			this.lockedClasses.put(targetClass, locked);
		}
		return locked;
	}

	private boolean inspect(Class<?> targetClass) {
		if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
			return false;
		}
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		return !MethodIntrospector
			.selectMethods(userClass,
					(MethodIntrospector.MetadataLookup<LockOperation>) (method) -> getOperation(method, userClass))
			.isEmpty();
	}

	/**
	 * Return the lock operations resolved so far: those of every bean class matched.
	 * @return the operations
	 */
	Collection<LockOperation> resolvedOperations() {
		return this.operations.values().stream().flatMap(Optional::stream).toList();
	}

	/**
	 * Return the lock operation of a call to {@code method} on an instance of
	 * {@code targetClass}.
	 * @param method the called method, possibly declared by an interface
	 * @param targetClass the class of the target, if known
	 * @return the operation, or {@code null} if the method is not locked
	 * @throws IllegalStateException if the annotation is invalid
	 */
	@Nullable LockOperation getOperation(Method method, @Nullable Class<?> targetClass) {
		AnnotatedElementKey cacheKey = new AnnotatedElementKey(method, targetClass);
		Optional<LockOperation> operation = this.operations.get(cacheKey);
		if (operation == null) {
			operation = Optional.ofNullable(resolve(method, targetClass));
			this.operations.put(cacheKey, operation);
		}
		return operation.orElse(null);
	}

	private @Nullable LockOperation resolve(Method method, @Nullable Class<?> targetClass) {
		Method targetMethod = BridgeMethodResolver
			.findBridgedMethod(AopUtils.getMostSpecificMethod(method, targetClass));
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(targetMethod, DistributedLock.class);
		if (annotation == null && targetMethod != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		}
		if (annotation == null) {
			return null;
		}
		checkInterceptable(targetMethod);
		Class<?> beanClass = (targetClass != null) ? ClassUtils.getUserClass(targetClass)
				: targetMethod.getDeclaringClass();
		Duration waitTime = duration(annotation.waitTime(), "waitTime", targetMethod);
		Duration leaseTime = duration(annotation.leaseTime(), "leaseTime", targetMethod);
		if (leaseTime != null && leaseTime.toMillis() < 1) {
			throw invalid(targetMethod, "leaseTime", annotation.leaseTime(), "must be at least 1ms");
		}
		FallbackMethod fallback = StringUtils.hasText(annotation.fallbackMethod())
				? FallbackMethod.resolve(targetMethod, beanClass, annotation.fallbackMethod()) : null;
		Duration holdAtLeast = duration(annotation.holdAtLeast(), "holdAtLeast", targetMethod);
		if (holdAtLeast != null && leaseTime != null && holdAtLeast.compareTo(leaseTime) > 0) {
			throw invalid(targetMethod, "holdAtLeast", annotation.holdAtLeast(),
					"must not be longer than the fixed leaseTime (" + annotation.leaseTime()
							+ "): the lock would expire before it");
		}
		if (annotation.onBusy() == OnBusy.SKIP && targetMethod.getReturnType().isPrimitive()
				&& targetMethod.getReturnType() != void.class) {
			throw invalid(targetMethod, "onBusy", "SKIP", "a method returning " + targetMethod.getReturnType()
					+ " has no empty result to skip with; return a wrapper type, Optional or void");
		}
		if (annotation.fair() && annotation.mode() == LockMode.READ) {
			throw invalid(targetMethod, "fair", "true",
					"read locks have no fair mode; a fair lock is an exclusive (mode = WRITE) lock");
		}
		checkSegments(annotation, targetMethod);
		if (holdAtLeast == null && AnnotatedElementUtils.hasAnnotation(targetMethod, Scheduled.class)
				&& this.warnedScheduledMethods.add(targetMethod)) {
			logger
				.warn("@Scheduled method " + targetMethod + " has @DistributedLock without holdAtLeast: it may run on "
						+ "several instances in one tick, when an instance's tick comes after the holder has finished; "
						+ "set holdAtLeast to a little less than the schedule's interval");
		}
		LockedReturn lockedReturn = LockedReturn.of(targetMethod, beanClass);
		checkLossPolicy(annotation.onLoss(), lockedReturn, targetMethod);
		LockOperation operation = new LockOperation(targetMethod, new AnnotatedElementKey(targetMethod, beanClass),
				annotation.key(), (waitTime != null) ? waitTime : this.defaultWaitTime, leaseTime, fallback,
				lockedReturn, annotation.onBusy(), annotation.onLoss(), holdAtLeast,
				name(annotation.name(), targetMethod, beanClass), annotation.mode(), annotation.fair(),
				methodName(targetMethod, beanClass), annotation.segments(),
				StringUtils.hasText(annotation.segmentFilter()) ? annotation.segmentFilter() : null, null);
		this.evaluator.validate(operation);
		return operation;
	}

	/**
	 * Reject a loss policy the method's kind of work cannot follow: a synchronous method
	 * has no future or publisher to cancel, and the thread that called an asynchronous
	 * method is not the one doing its work.
	 */
	private static void checkLossPolicy(LockLossPolicy onLoss, LockedReturn lockedReturn, Method method) {
		boolean synchronous = lockedReturn == LockedReturn.SYNCHRONOUS;
		if (onLoss == LockLossPolicy.CANCEL && synchronous) {
			throw invalid(method, "onLoss", "CANCEL", "a synchronous method returns no future or publisher to "
					+ "cancel; use onLoss = LockLossPolicy.INTERRUPT to interrupt its thread");
		}
		if (onLoss == LockLossPolicy.INTERRUPT && !synchronous) {
			throw invalid(method, "onLoss", "INTERRUPT",
					"the method is asynchronous (it returns " + method.getReturnType().getSimpleName()
							+ "), so its work does not run on a thread the advice "
							+ "could interrupt; use onLoss = LockLossPolicy.CANCEL to cancel it");
		}
	}

	/**
	 * Reject segments that cannot be honoured: fewer than one, with read or fair locks,
	 * and a segment filter without segments.
	 */
	private static void checkSegments(DistributedLock annotation, Method method) {
		int segments = annotation.segments();
		String value = String.valueOf(segments);
		if (segments < 1) {
			throw invalid(method, "segments", value, "must be at least 1 (1, the default, means not segmented)");
		}
		if (segments > 1 && annotation.mode() == LockMode.READ) {
			throw invalid(method, "segments", value, "read locks have no segments (mode = READ): readers share "
					+ "one key already; remove segments or mode = READ");
		}
		if (segments > 1 && annotation.fair()) {
			throw invalid(method, "segments", value, "fair locks have no segments (fair = true): a caller that "
					+ "takes whichever segment is free is not served in arrival order; remove segments or fair = true");
		}
		if (segments == 1 && StringUtils.hasText(annotation.segmentFilter())) {
			throw invalid(method, "segmentFilter", annotation.segmentFilter(),
					"filters segments, but the method is not segmented; set segments greater than 1");
		}
	}

	/**
	 * Reject methods that no Spring proxy ever intercepts, whatever its type: calls to
	 * them would run without the lock. Final methods depend on the proxy type and are
	 * checked once the proxy exists ({@link LockProxyValidator}).
	 */
	private static void checkInterceptable(Method method) {
		int modifiers = method.getModifiers();
		if (Modifier.isStatic(modifiers)) {
			throw notInterceptable(method, "the method is static, so calls to it never go through the Spring proxy "
					+ "and would run without the lock; make it an instance method of the bean");
		}
		if (Modifier.isPrivate(modifiers)) {
			throw notInterceptable(method, "the method is private, so calls to it never go through the Spring proxy "
					+ "and would run without the lock; make it public and call it through the bean");
		}
	}

	/**
	 * Return the exception for an annotated method that the proxy cannot intercept.
	 * @param method the annotated method
	 * @param reason why calls to it would run without the lock
	 * @return the exception
	 */
	static IllegalStateException notInterceptable(Method method, String reason) {
		return new IllegalStateException("Invalid @DistributedLock on " + method + ": " + reason);
	}

	/**
	 * Return the lock name for metrics and traces: the annotation's, with placeholders
	 * resolved, or {@code SimpleClassName.methodName} of the bean class.
	 */
	private String name(String value, Method method, Class<?> beanClass) {
		String resolved;
		try {
			resolved = (this.beanFactory instanceof ConfigurableBeanFactory configurable)
					? configurable.resolveEmbeddedValue(value) : value;
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, "name", value, ex.getMessage());
		}
		return StringUtils.hasText(resolved) ? resolved.trim() : methodName(method, beanClass);
	}

	/**
	 * Return {@code SimpleClassName.methodName} of the bean class: the default lock name,
	 * and how the advice names the method when it asks for locks.
	 */
	private static String methodName(Method method, Class<?> beanClass) {
		String className = beanClass.getSimpleName();
		return (StringUtils.hasText(className) ? className : ClassUtils.getShortName(beanClass)) + "."
				+ method.getName();
	}

	private @Nullable Duration duration(String value, String attribute, Method method) {
		String resolved;
		try {
			resolved = (this.beanFactory instanceof ConfigurableBeanFactory configurable)
					? configurable.resolveEmbeddedValue(value) : value;
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, attribute, value, ex.getMessage());
		}
		if (!StringUtils.hasText(resolved)) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(resolved.trim());
		}
		catch (IllegalArgumentException | DateTimeException ex) {
			throw invalid(method, attribute, value,
					"'" + resolved + "' is not a duration such as \"0\", \"500ms\", \"2s\" or \"PT2S\"");
		}
		if (duration.isNegative()) {
			throw invalid(method, attribute, value, "must not be negative");
		}
		return duration;
	}

	private static IllegalStateException invalid(Method method, String attribute, String value,
			@Nullable String reason) {
		return new IllegalStateException(
				"Invalid @DistributedLock(" + attribute + " = \"" + value + "\") on " + method + ": " + reason);
	}

}
