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

import java.util.Map;

import dev.distlock.annotation.LockLossPolicy;
import dev.distlock.annotation.LockMode;
import dev.distlock.annotation.OnBusy;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.LockExpressionRootObject;
import dev.distlock.aop.LockProxyValidator;
import dev.distlock.aop.TransactionalLockPostProcessor;
import dev.distlock.core.LockClient;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@link dev.distlock.annotation.DistributedLock
 * &#064;DistributedLock} advice, on the {@link LockClient} bean. It is on whenever
 * distlock is enabled, so that locked methods without a {@link LockClient} fail the
 * application at startup instead of running unlocked. With {@code spring-tx} on the
 * classpath, lock ownership is also confirmed before each transaction that begins inside
 * a lock commits. Every proxy is checked at startup for locked methods it cannot
 * intercept (final methods of class-based proxies). Like
 * {@code @EnableTransactionManagement}, it registers an infrastructure auto-proxy creator
 * if the application has none (for example with {@code spring.aop.auto=false}), so the
 * advice is never silently left out.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(after = LockAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
@Import(LockAspectAutoConfiguration.AutoProxyCreatorRegistrar.class)
@ImportRuntimeHints(LockAspectAutoConfiguration.LockAspectRuntimeHints.class)
public final class LockAspectAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor distributedLockAdvisor(BeanFactory beanFactory, Environment environment) {
		// Bound directly rather than injected: advisors are created while post-processors
		// are registered, too early for the DistlockProperties bean.
		DistlockProperties distlock = Binder.get(environment).bindOrCreate("distlock", DistlockProperties.class);
		DistributedLockAdvisor advisor = PropertyErrors.named(() -> new DistributedLockAdvisor(beanFactory,
				distlock.getWaitTime(), distlock.getMaxKeyLength(), distlock.getMaxKeys()));
		advisor.setOrder(distlock.getAspect().getOrder());
		PropertyErrors.named(() -> {
			advisor.setHoldAfterCancel(distlock.getReactive().getHoldAfterCancel());
			return advisor;
		}, Map.of("holdAfterCancel", "distlock.reactive.hold-after-cancel"));
		AsyncExecutor.configure(advisor, distlock.getAsync().getExecutor(), beanFactory, environment);
		return advisor;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockProxyValidator lockProxyValidator() {
		return new LockProxyValidator();
	}

	/**
	 * Registers an auto-proxy creator unless one with at least its capabilities exists.
	 */
	static final class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

	/**
	 * Reflection the advice needs in a native image whatever the locked beans: the root
	 * object of key expressions, whose properties SpEL reads ({@code #root.methodName}),
	 * and the constants of {@link OnBusy}, {@link LockLossPolicy} and {@link LockMode}
	 * read from annotation attributes. The locked beans' own methods are registered per
	 * bean, by {@code DistributedLockBeanRegistrationAotProcessor}.
	 */
	static final class LockAspectRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection()
				.registerType(LockExpressionRootObject.class, MemberCategory.INVOKE_PUBLIC_METHODS)
				.registerType(OnBusy.class, MemberCategory.DECLARED_FIELDS)
				.registerType(LockLossPolicy.class, MemberCategory.DECLARED_FIELDS)
				.registerType(LockMode.class, MemberCategory.DECLARED_FIELDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.transaction.support.TransactionSynchronizationManager")
	static class TransactionalLockConfiguration {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		@ConditionalOnMissingBean
		static TransactionalLockPostProcessor transactionalLockPostProcessor() {
			return new TransactionalLockPostProcessor();
		}

	}

}
