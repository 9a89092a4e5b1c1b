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

package dev.distlock.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.distlock.test.LockOrderCheckExtension;
import dev.distlock.test.LockOrderChecker;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.test.context.TestPropertySource;

/**
 * Checks the order in which a Spring Boot test's locks are taken: the application's lock
 * client reports to the shared {@link LockOrderChecker}, and a test during which an
 * acquisition closed a cycle of lock names (here {@code Transfers.debit} then
 * {@code Accounts.audit}, elsewhere the other way round) fails, showing both call paths:
 * <pre class="code">
 * &#064;SpringBootTest
 * &#064;AutoConfigureLockOrderCheck
 * class TransferTests {
 *
 *     &#064;Autowired
 *     Transfers transfers;
 *
 *     &#064;Test
 *     void transfers() {
 *         this.transfers.transfer(1, 2, 10);
 *     }
 *
 * }
 * </pre> The same as {@code distlock.test.lock-order-check=true}, which this annotation
 * sets; combine it with {@link AutoConfigureInMemoryLocks} or any store.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockOrderCheckAutoConfiguration
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@TestPropertySource(properties = LockOrderCheckAutoConfiguration.PROPERTY + "=true")
@ExtendWith(LockOrderCheckExtension.class)
public @interface AutoConfigureLockOrderCheck {

}
