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

import java.util.function.Supplier;

import dev.distlock.store.ForwardingLockStore;
import dev.distlock.store.LockStore;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Starts an application whose lock store is the application's own decorator
 * ({@link ForwardingLockStore}) over a store, and checks that a locked method the store
 * cannot honour still fails startup behind it.
 *
 * @author distlock
 */
final class DecoratedStoreStartup {

	private DecoratedStoreStartup() {
	}

	/**
	 * Assert that an application with {@code store} and the bean {@code service} fails
	 * startup naming the attribute, the service and the extension that refused it.
	 * @param store the decorated store
	 * @param service a bean with a locked method the store cannot honour
	 * @param attribute the attribute, as the message names it
	 * @param extension the extension the store lacks or that states its limit
	 */
	static void assertStartupFails(Supplier<LockStore> store, Class<?> service, String attribute, Class<?> extension) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
					LockDisabledAutoConfiguration.class))
			.withBean(LockStore.class, store)
			.withBean(service)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.isInstanceOf(IllegalStateException.class)
					.hasMessageContaining(attribute)
					.hasMessageContaining(service.getSimpleName())
					.hasMessageContaining(extension.getName());
			});
	}

}
