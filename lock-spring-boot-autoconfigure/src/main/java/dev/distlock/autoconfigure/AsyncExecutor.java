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

import java.util.concurrent.Executor;

import dev.distlock.aop.DistributedLockAdvisor;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.system.JavaVersion;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Chooses the executor that bodies of asynchronous locked methods run on
 * ({@code distlock.async.executor}): the bean it names, else Spring Boot's
 * {@code applicationTaskExecutor} (which follows {@code spring.threads.virtual.enabled}
 * and {@code spring.task.execution.*}), else a new thread per call, virtual when
 * {@code spring.threads.virtual.enabled} is true on Java 21 or later.
 *
 * @author distlock
 */
final class AsyncExecutor {

	static final String PROPERTY = "distlock.async.executor";

	/**
	 * The name of the executor Spring Boot's task execution auto-configuration defines.
	 */
	static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

	private AsyncExecutor() {
	}

	/**
	 * Give the advisor its executor.
	 * @param advisor the advisor
	 * @param name the bean named by {@code distlock.async.executor}, if any
	 * @param beanFactory where the bean is looked up, at the first asynchronous call
	 * @param environment tells whether virtual threads are on
	 * @throws IllegalStateException naming the property if the named bean does not exist
	 */
	static void configure(DistributedLockAdvisor advisor, @Nullable String name, BeanFactory beanFactory,
			Environment environment) {
		if (StringUtils.hasText(name)) {
			if (!beanFactory.containsBean(name)) {
				throw new IllegalStateException("Invalid distlock configuration: " + PROPERTY + " names the bean '"
						+ name + "', but there is no bean of that name; name an Executor bean, or remove the "
						+ "property to use Spring Boot's " + APPLICATION_TASK_EXECUTOR);
			}
			advisor.setAsyncExecutor(() -> beanFactory.getBean(name, Executor.class));
		}
		else if (beanFactory.containsBean(APPLICATION_TASK_EXECUTOR)) {
			advisor.setAsyncExecutor(() -> beanFactory.getBean(APPLICATION_TASK_EXECUTOR, Executor.class));
		}
		else if (environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
				&& JavaVersion.getJavaVersion().isEqualOrNewerThan(JavaVersion.TWENTY_ONE)) {
			advisor.useVirtualThreads();
		}
	}

}
