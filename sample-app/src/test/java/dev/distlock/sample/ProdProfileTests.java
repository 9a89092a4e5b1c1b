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

package dev.distlock.sample;

import java.io.IOException;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the sample's {@code prod} profile.
 *
 * @author distlock
 */
class ProdProfileTests {

	@Test
	void exposesOnlyHealthOverHttp() throws IOException {
		Properties prod = PropertiesLoaderUtils.loadProperties(new ClassPathResource("application-prod.properties"));
		assertThat(prod.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
	}

}
