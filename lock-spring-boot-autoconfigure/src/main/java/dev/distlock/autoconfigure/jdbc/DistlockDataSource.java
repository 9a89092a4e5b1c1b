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

package dev.distlock.autoconfigure.jdbc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifier of the {@code DataSource} the JDBC lock store uses when it is not the
 * application's primary one, as Spring Boot's {@code @FlywayDataSource} and
 * {@code @QuartzDataSource} mark theirs. Without it, the JDBC store uses the single
 * {@code DataSource}, or the primary one. For example:
 *
 * <pre class="code">
 * &#064;Bean
 * &#064;DistlockDataSource
 * DataSource lockDataSource() {
 *     return DataSourceBuilder.create().url("jdbc:postgresql://locks/app").build();
 * }
 * </pre>
 *
 * @author distlock
 * @since 0.1.0
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface DistlockDataSource {

}
