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

import dev.distlock.aop.LeaderOnlyAdvisor;
import dev.distlock.core.LockClient;
import dev.distlock.leader.LeaderCampaign;
import dev.distlock.leader.Leadership;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of leadership: with {@code distlock.leader.enabled=true}, a
 * {@link Leadership} bean ({@link LeaderCampaign}) on the {@link LockClient} bean, named
 * by {@code distlock.leader.name} or else {@code spring.application.name}, and its state
 * in the {@code distlock} health and endpoint. The
 * {@link dev.distlock.annotation.LeaderOnly @LeaderOnly} advice is on whenever distlock
 * is, so that such methods fail the application at startup while leadership is off
 * instead of running on every instance.
 *
 * @author distlock
 * @since 0.1.0
 */
@AutoConfiguration(after = LockAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LeadershipProperties.class)
@Import(LockAspectAutoConfiguration.AutoProxyCreatorRegistrar.class)
public final class LeadershipAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeaderOnlyAdvisor leaderOnlyAdvisor(BeanFactory beanFactory) {
		return new LeaderOnlyAdvisor(beanFactory);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("distlock.leader.enabled")
	static class LeadershipConfiguration {

		@Bean
		@ConditionalOnMissingBean(Leadership.class)
		LeaderCampaign distlockLeadership(ObjectProvider<LockClient> lockClient, LeadershipProperties properties,
				Environment environment, ApplicationEventPublisher events) {
			String name = name(properties, environment);
			LockClient client = lockClient.getIfUnique();
			if (client == null) {
				throw new IllegalStateException("distlock.leader.enabled is true, but there is no single LockClient "
						+ "bean to hold the leader lock of '" + name + "' with");
			}
			return PropertyErrors.named(() -> new LeaderCampaign(client, name, properties.getRetryInterval(), events),
					Map.of("retryInterval", "distlock.leader.retry-interval"));
		}

		@Bean
		LeadershipHealth distlockLeadershipHealth(Leadership leadership) {
			return new LeadershipHealth(leadership);
		}

		private static String name(LeadershipProperties properties, Environment environment) {
			String name = properties.getName();
			if (!StringUtils.hasText(name)) {
				name = environment.getProperty("spring.application.name");
			}
			if (!StringUtils.hasText(name)) {
				throw new IllegalStateException("distlock.leader.enabled is true, but the leadership has no name: "
						+ "set distlock.leader.name, or spring.application.name, to the name the instances "
						+ "that compete for it share");
			}
			return name;
		}

	}

}
