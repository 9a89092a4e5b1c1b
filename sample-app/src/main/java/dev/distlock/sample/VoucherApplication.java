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

import java.time.Clock;
import java.time.Duration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * Voucher flash sale: a limited stock of vouchers, one order per user, safe across
 * several instances thanks to {@link dev.distlock.annotation.DistributedLock
 *
 * @DistributedLock}.
 * @author distlock
 * @since 0.1.0
 */
@SpringBootApplication
public class VoucherApplication {

	@Bean
	Clock clock() {
		// microseconds: what every supported database stores
		return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1000));
	}

	/**
	 * Start the application.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(VoucherApplication.class, args);
	}

}
