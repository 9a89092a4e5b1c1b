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

import java.security.Principal;
import java.time.Duration;
import java.util.Set;

import dev.distlock.autoconfigure.DistlockEndpoint.ForcedReleaseDescriptor;
import dev.distlock.autoconfigure.DistlockEndpoint.HeldLockDescriptor;
import dev.distlock.autoconfigure.DistlockEndpoint.LockStateDescriptor;
import dev.distlock.autoconfigure.DistlockEndpoint.Message;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockHold;
import dev.distlock.store.LockStore;
import dev.distlock.memory.ControllableInMemoryLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.annotation.MergedAnnotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link DistlockEndpoint}: keys masked unless shown, read-only access by
 * default, every refused force release logged, keys escaped in log lines. On the
 * in-memory lock store.
 *
 * @author distlock
 */
@ExtendWith(OutputCaptureExtension.class)
class DistlockEndpointTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockEndpointAutoConfiguration.class))
		.withBean(ControllableInMemoryLockStore.class)
		.withPropertyValues("management.endpoints.web.exposure.include=distlock");

	@Test
	void masksKeysByDefault() {
		this.contextRunner.run((context) -> {
			DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
			try (LockHold hold = context.getBean(DefaultLockClient.class)
				.acquire("orders", "user:42", Duration.ZERO, null)) {
				assertThat(endpoint.heldLocks(authenticated("ADMIN")).locks()).extracting(HeldLockDescriptor::key)
					.containsExactly(DistlockEndpoint.MASK);
				assertThat(endpoint.lock(new String[] { "user:42" }, authenticated("ADMIN")).getBody())
					.isInstanceOfSatisfying(LockStateDescriptor.class, (state) -> {
						assertThat(state.key()).isEqualTo("******");
						assertThat(state.state()).isEqualTo("held");
						assertThat(state.local()).isNotNull();
						assertThat(state.local().key()).isEqualTo("******");
					});
			}
		});
	}

	@Test
	void showsKeysWithAlways() {
		this.contextRunner.withPropertyValues("distlock.endpoint.show-keys=always").run((context) -> {
			DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
			try (LockHold hold = context.getBean(DefaultLockClient.class)
				.acquire("orders", "user:42", Duration.ZERO, null)) {
				assertThat(endpoint.heldLocks(SecurityContext.NONE).locks()).extracting(HeldLockDescriptor::key)
					.containsExactly("user:42");
			}
		});
	}

	@Test
	void showsKeysWhenAuthorizedOnlyToCallersWithARole() {
		this.contextRunner
			.withPropertyValues("distlock.endpoint.show-keys=when-authorized", "distlock.endpoint.roles=LOCK_ADMIN")
			.run((context) -> {
				DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
				try (LockHold hold = context.getBean(DefaultLockClient.class)
					.acquire("orders", "user:42", Duration.ZERO, null)) {
					assertThat(endpoint.heldLocks(authenticated("LOCK_ADMIN")).locks())
						.extracting(HeldLockDescriptor::key)
						.containsExactly("user:42");
					assertThat(endpoint.heldLocks(authenticated("USER")).locks()).extracting(HeldLockDescriptor::key)
						.containsExactly("******");
					assertThat(endpoint.heldLocks(SecurityContext.NONE).locks()).extracting(HeldLockDescriptor::key)
						.containsExactly("******");
				}
			});
	}

	@Test
	void showsKeysWhenAuthorizedToAnyAuthenticatedCallerWithoutRoles() {
		this.contextRunner.withPropertyValues("distlock.endpoint.show-keys=when-authorized").run((context) -> {
			DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
			try (LockHold hold = context.getBean(DefaultLockClient.class)
				.acquire("orders", "user:42", Duration.ZERO, null)) {
				assertThat(endpoint.heldLocks(authenticated("USER")).locks()).extracting(HeldLockDescriptor::key)
					.containsExactly("user:42");
				assertThat(endpoint.heldLocks(SecurityContext.NONE).locks()).extracting(HeldLockDescriptor::key)
					.containsExactly("******");
			}
		});
	}

	@Test
	void isReadOnlyByDefault() {
		assertThat(MergedAnnotations.from(DistlockEndpoint.class)
			.get(WebEndpoint.class)
			.getEnum("defaultAccess", Access.class)).isEqualTo(Access.READ_ONLY);
	}

	@Test
	void logsARefusedForceRelease(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			context.getBean(ControllableInMemoryLockStore.class).takeOver("stuck", "another-instance");
			WebEndpointResponse<Object> refused = context.getBean(DistlockEndpoint.class)
				.forceRelease(new String[] { "stuck" }, authenticated("ADMIN"));
			assertThat(refused.getStatus()).isEqualTo(403);
			assertThat(refused.getBody()).isInstanceOfSatisfying(Message.class,
					(message) -> assertThat(message.key()).isEqualTo("******"));
			assertThat(context.getBean(ControllableInMemoryLockStore.class).isLocked("stuck")).isTrue();
			assertThat(output).contains("Refused to force-release lock 'stuck' for 'alice'")
				.contains("distlock.endpoint.force-release is not enabled");
		});
	}

	@Test
	void logsAForceReleaseTheStoreCannotDo(CapturedOutput output) {
		// A store that does not implement InspectionExtension
		LockStore store = mock(LockStore.class);
		try (DefaultLockClient client = new DefaultLockClient(store)) {
			DistlockEndpoint endpoint = new DistlockEndpoint(client, true, Show.NEVER, Set.of());
			assertThat(endpoint.forceRelease(new String[] { "stuck" }, SecurityContext.NONE).getStatus())
				.isEqualTo(501);
			assertThat(output).contains("Refused to force-release lock 'stuck' for an unauthenticated caller")
				.contains("cannot inspect or force-release lock keys");
		}
	}

	@Test
	void logsAForceReleaseOfAnInvalidKey(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.endpoint.force-release=true").run((context) -> {
			WebEndpointResponse<Object> refused = context.getBean(DistlockEndpoint.class)
				.forceRelease(new String[] { "k".repeat(600) }, SecurityContext.NONE);
			assertThat(refused.getStatus()).isEqualTo(400);
			assertThat(output).contains("Refused to force-release lock 'kkk").contains("600 bytes of UTF-8");
		});
	}

	@Test
	void escapesControlCharactersOfKeysInLogLines(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			context.getBean(DistlockEndpoint.class)
				.forceRelease(new String[] { "a\r\nWARN forged line" }, SecurityContext.NONE);
			assertThat(output).contains("Refused to force-release lock 'a\\r\\nWARN forged line'")
				.doesNotContain("\nWARN forged line");
		});
	}

	@Test
	void forceReleasesWithTheSwitchOn() {
		this.contextRunner.withPropertyValues("distlock.endpoint.force-release=true").run((context) -> {
			context.getBean(ControllableInMemoryLockStore.class).takeOver("stuck", "another-instance");
			WebEndpointResponse<Object> released = context.getBean(DistlockEndpoint.class)
				.forceRelease(new String[] { "stuck" }, SecurityContext.NONE);
			assertThat(released.getStatus()).isEqualTo(200);
			assertThat(released.getBody()).isInstanceOfSatisfying(ForcedReleaseDescriptor.class,
					(body) -> assertThat(body.key()).isEqualTo("******"));
			assertThat(context.getBean(ControllableInMemoryLockStore.class).isLocked("stuck")).isFalse();
		});
	}

	private static SecurityContext authenticated(String role) {
		return new SecurityContext() {

			@Override
			public @Nullable Principal getPrincipal() {
				return () -> "alice";
			}

			@Override
			public boolean isUserInRole(String name) {
				return role.equals(name);
			}

		};
	}

}
