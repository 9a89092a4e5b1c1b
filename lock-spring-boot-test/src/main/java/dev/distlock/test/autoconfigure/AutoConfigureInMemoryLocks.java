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

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Makes the application's lock client an {@link dev.distlock.test.InMemoryLocks} client
 * in a Spring Boot test, so locked beans run without Redis, with the engine's semantics
 * and the {@code distlock.*} properties: <pre class="code">
 * &#064;SpringBootTest
 * &#064;AutoConfigureInMemoryLocks
 * class OrderServiceTests {
 *
 *     &#064;Autowired
 *     InMemoryLocks locks;
 *
 *     &#064;Autowired
 *     OrderService service;
 *
 *     &#064;Test
 *     void ordersUnderTheUsersLock() {
 *         LockAssertions.assertRanUnderLock(this.locks, "order:7", () -&gt; this.service.order(7));
 *     }
 *
 * }
 * </pre> The Redis lock client and store back off. Nothing here connects to Redis; Spring
 * Boot's own Redis auto-configuration still defines its connection factory if it is on
 * the classpath (it connects only when used), unless it is excluded.
 *
 * @author distlock
 * @since 0.1.0
 * @see InMemoryLocksAutoConfiguration
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureInMemoryLocks {

}
