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

package dev.distlock.store;

import dev.distlock.LossReason;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.distlock.memory.InMemoryLockStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.ClassMetadata;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ForwardingLockStore}, the base of every decorator, keeps every extension of the
 * store it wraps. The extension types are found on the class path rather than listed
 * here, so a new extension that the forwarding store forgets fails this test instead of
 * silently disappearing behind every decorator (as {@link SessionLeaseExtension} once
 * did, which let a fixed lease through both of the ZooKeeper store's refusals).
 *
 * @author distlock
 */
class ForwardingLockStoreTests {

	private static final Answers ANSWERS = new Answers();

	@Test
	void findsTheExtensionsOnTheClassPath() {
		assertThat(extensionTypes()).contains(ReadLockExtension.class, FairQueueExtension.class, WakeOneExtension.class,
				HandOverExtension.class, LocalHandOverExtension.class, SeveralKeysExtension.class,
				InspectionExtension.class, SessionLeaseExtension.class);
	}

	@ParameterizedTest
	@MethodSource("extensionTypes")
	void offersAnExtensionExactlyWhenTheWrappedStoreHasIt(Class<? extends LockStoreExtension> type) {
		assertThat(type).as("ForwardingLockStore must implement every extension")
			.isAssignableFrom(ForwardingLockStore.class);
		assertThat(new ForwardingLockStore(recordingStore(type, new ArrayList<>())).extension(type)).isNotNull();
		assertThat(new ForwardingLockStore(recordingStore(null, new ArrayList<>())).extension(type)).isNull();
	}

	@ParameterizedTest
	@MethodSource("extensionTypes")
	void forwardsEveryMethodOfAnExtensionWithItsArgumentsAndAnswer(Class<? extends LockStoreExtension> type)
			throws Exception {
		forwardsEveryMethodOf(type);
	}

	@Test
	void forwardsEveryRequiredMethodWithItsArgumentsAndAnswer() throws Exception {
		forwardsEveryMethodOf(LockStore.class);
	}

	private static void forwardsEveryMethodOf(Class<?> type) throws Exception {
		for (Method method : type.getDeclaredMethods()) {
			// Default methods too: a store may override them, and a decorator must pass
			// that on
			if (Modifier.isStatic(method.getModifiers()) || method.getName().equals("extension")
					|| method.getName().equals("close")) {
				continue;
			}
			List<Invocation> calls = new ArrayList<>();
			LockStore delegate = recordingStore(LockStoreExtension.class.isAssignableFrom(type) ? type : null, calls);
			Object[] arguments = arguments(method);
			Object answer = method.invoke(new ForwardingLockStore(delegate), arguments);
			assertThat(calls).as(method.toString())
				.containsExactly(new Invocation(method.getName(), List.of(arguments)));
			if (method.getReturnType().isPrimitive()) {
				// Boxed anew by reflection
				assertThat(answer).as(method.toString()).isEqualTo(ANSWERS.answer(method.getReturnType()));
			}
			else {
				assertThat(answer).as(method.toString()).isSameAs(ANSWERS.answer(method.getReturnType()));
			}
		}
	}

	static List<Class<? extends LockStoreExtension>> extensionTypes() {
		try {
			MetadataReaderFactory readers = new CachingMetadataReaderFactory();
			List<Class<? extends LockStoreExtension>> types = new ArrayList<>();
			for (Resource resource : new PathMatchingResourcePatternResolver()
				.getResources("classpath*:dev/distlock/**/*.class")) {
				ClassMetadata metadata = readers.getMetadataReader(resource).getClassMetadata();
				if (metadata.isInterface() && !metadata.getClassName().equals(LockStoreExtension.class.getName())) {
					Class<?> type = ClassUtils.forName(metadata.getClassName(), null);
					if (LockStoreExtension.class.isAssignableFrom(type)) {
						types.add(type.asSubclass(LockStoreExtension.class));
					}
				}
			}
			return types;
		}
		catch (IOException | ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static LockStore recordingStore(Class<?> extension, List<Invocation> calls) {
		Set<Class<?>> interfaces = (extension != null) ? Set.of(LockStore.class, extension) : Set.of(LockStore.class);
		return (LockStore) Proxy.newProxyInstance(ForwardingLockStoreTests.class.getClassLoader(),
				interfaces.toArray(Class<?>[]::new), (proxy, method, args) -> {
					if (method.getName().equals("extension")) {
						return (extension != null && ((Class<?>) args[0]).isAssignableFrom(extension)) ? proxy : null;
					}
					if (method.getDeclaringClass() == Object.class) {
						return method.getName().equals("equals") ? proxy == args[0] : System.identityHashCode(proxy);
					}
					calls.add(new Invocation(method.getName(), (args != null) ? List.of(args) : List.of()));
					return ANSWERS.answer(method.getReturnType());
				});
	}

	private static Object[] arguments(Method method) {
		Class<?>[] types = method.getParameterTypes();
		Object[] arguments = new Object[types.length];
		for (int i = 0; i < types.length; i++) {
			arguments[i] = argument(types[i], i);
		}
		return arguments;
	}

	private static Object argument(Class<?> type, int position) {
		if (type == String.class) {
			return "argument-" + position;
		}
		if (type == Duration.class) {
			return Duration.ofMillis(position + 1);
		}
		if (type == List.class) {
			return List.of(new LockStore.Renewal("key-" + position, "token-" + position));
		}
		if (type == Runnable.class) {
			return (Runnable) () -> {
			};
		}
		if (type == Consumer.class) {
			return (Consumer<Object>) (value) -> {
			};
		}
		if (type == long.class) {
			return (long) position;
		}
		throw new IllegalStateException("No test argument of type " + type.getName() + ": add one");
	}

	private record Invocation(String method, List<Object> arguments) {
	}

	/**
	 * One answer per return type, so that the test can tell the delegate's answer was
	 * passed on unchanged.
	 */
	private static final class Answers {

		private final CompletableFuture<Object> stage = new CompletableFuture<>();

		private final LockStore.Subscription subscription = () -> {
		};

		private final Duration duration = Duration.ofMinutes(7);

		private final HeldLockOperations operations = new InMemoryLockStore();

		private final Object object = new Object();

		Object answer(Class<?> returnType) {
			if (returnType == long.class) {
				return 7L;
			}
			return Stream
				.of(this.stage, this.subscription, this.duration, LossReason.FORCED, "answer", this.operations,
						this.object)
				.filter(returnType::isInstance)
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No test answer of type " + returnType.getName()));
		}

	}

}
