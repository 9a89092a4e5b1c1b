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

package dev.distlock.test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.distlock.LogSafe;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockTracker;
import org.jspecify.annotations.Nullable;

/**
 * Finds lock-order inversions in tests: a {@link LockClientListener} that records, per
 * thread, which named locks are taken while others are held (an edge from the held lock's
 * name to the new one's), and reports a cycle as soon as an acquisition closes one:
 * {@code A} then {@code B} in one test and {@code B} then {@code A} in another, or a
 * longer cycle such as {@code A -> B -> C -> A}. Two instances whose calls take such
 * locks at the same time can deadlock until their wait times run out. <pre class="code">
 * &#064;SpringBootTest
 * &#064;AutoConfigureLockOrderCheck
 * class TransferTests {
 *     // a test that ends with an inversion found during it fails, showing both call paths
 * }
 * </pre> Locks are told apart by their {@code name} (the {@code @DistributedLock} name,
 * {@code SimpleClassName.methodName} by default), never by their key: unnamed locks
 * ({@link LockClient#UNNAMED}) are ignored, and a name taken while the same name is held
 * (the keys of one call, or nested calls of one method) is no edge. An acquisition counts
 * from when it is asked for, so an inversion is found whether or not it deadlocked; a
 * lock asked for asynchronously counts as held by the thread that asked for it until it
 * is released.
 * <p>
 * {@link #shared()} is the instance of a test run: {@code @AutoConfigureLockOrderCheck}
 * and {@code distlock.test.lock-order-check=true} register it as a listener of the
 * application's lock client, so inversions are found across test classes and their
 * application contexts. {@link #verify()} reports the inversions found since its last
 * call; {@link LockOrderCheckExtension} calls it after each test.
 *
 * @author distlock
 * @since 0.1.0
 * @see LockOrderCheckExtension
 */
public class LockOrderChecker implements LockClientListener {

	private static final LockOrderChecker SHARED = new LockOrderChecker();

	private static final int MAX_FRAMES = 12;

	private static final List<String> SKIPPED_FRAMES = List.of("dev.distlock.core.", "dev.distlock.aop.",
			"org.springframework.", "java.", "jdk.", "sun.");

	private final Object monitor = new Object();

	/** The acquisitions each thread holds, in the order it took them. */
	private final Map<Thread, List<Acquisition>> held = new HashMap<>();

	/** From a held name to the names taken under it, with the first time it happened. */
	private final Map<String, Map<String, Edge>> edges = new LinkedHashMap<>();

	private final List<String> inversions = new ArrayList<>();

	private int verified;

	/**
	 * Return the checker of this test run (of this JVM), the one the test
	 * auto-configuration registers.
	 * @return the shared checker
	 */
	public static LockOrderChecker shared() {
		return SHARED;
	}

	@Override
	public LockTracker acquisitionStarted(String name, String key) {
		if (LockClient.UNNAMED.equals(name)) {
			return LockTracker.NONE;
		}
		Thread thread = Thread.currentThread();
		Acquisition acquisition = new Acquisition(name, key, thread.getName(), callPath());
		synchronized (this.monitor) {
			for (Acquisition outer : this.held.getOrDefault(thread, List.of())) {
				if (!outer.name().equals(name)) {
					order(outer, acquisition);
				}
			}
		}
		return new LockTracker() {

			@Override
			public void acquired(Duration waited, long fencingToken) {
				remember(thread, acquisition);
			}

			@Override
			public void released(@Nullable Throwable failure) {
				forget(thread, acquisition);
			}

		};
	}

	private void remember(Thread thread, Acquisition acquisition) {
		synchronized (this.monitor) {
			this.held.computeIfAbsent(thread, (key) -> new ArrayList<>()).add(acquisition);
		}
	}

	private void forget(Thread thread, Acquisition acquisition) {
		synchronized (this.monitor) {
			List<Acquisition> holds = this.held.get(thread);
			if (holds != null && holds.remove(acquisition) && holds.isEmpty()) {
				this.held.remove(thread);
			}
		}
	}

	/**
	 * Fail if inversions were found since the last call: the test that called it (the one
	 * during which they were found) fails, showing the call paths of each.
	 * @throws AssertionError describing each inversion found since the last call
	 */
	public void verify() {
		List<String> found;
		synchronized (this.monitor) {
			found = List.copyOf(this.inversions.subList(this.verified, this.inversions.size()));
			this.verified = this.inversions.size();
		}
		if (!found.isEmpty()) {
			throw new AssertionError(String.join("\n\n", found));
		}
	}

	/**
	 * Return every inversion found so far, reported or not, each described with its call
	 * paths.
	 * @return the inversions, oldest first
	 */
	public List<String> inversions() {
		synchronized (this.monitor) {
			return List.copyOf(this.inversions);
		}
	}

	/**
	 * Forget the recorded order and the inversions found, not the locks held now.
	 */
	public void reset() {
		synchronized (this.monitor) {
			this.edges.clear();
			this.inversions.clear();
			this.verified = 0;
		}
	}

	/**
	 * Record that {@code inner} was asked for while {@code outer} was held, and the
	 * inversion if the order of the two names was the other way round somewhere, even
	 * through other names.
	 */
	private void order(Acquisition outer, Acquisition inner) {
		Map<String, Edge> after = this.edges.computeIfAbsent(outer.name(), (name) -> new LinkedHashMap<>());
		if (after.containsKey(inner.name())) {
			return;
		}
		Edge edge = new Edge(outer, inner);
		List<Edge> back = path(inner.name(), outer.name());
		after.put(inner.name(), edge);
		if (back != null) {
			this.inversions.add(describe(edge, back));
		}
	}

	/**
	 * Return the edges of a path from one name to another, breadth first, or {@code null}
	 * if there is none.
	 */
	private @Nullable List<Edge> path(String from, String to) {
		Map<String, Edge> reachedBy = new HashMap<>();
		Deque<String> next = new ArrayDeque<>(List.of(from));
		while (!next.isEmpty()) {
			String name = next.poll();
			for (Edge edge : this.edges.getOrDefault(name, Map.of()).values()) {
				String target = edge.inner().name();
				if (target.equals(from) || reachedBy.containsKey(target)) {
					continue;
				}
				reachedBy.put(target, edge);
				if (target.equals(to)) {
					List<Edge> path = new ArrayList<>();
					for (Edge step = edge; step != null; step = reachedBy.get(step.outer().name())) {
						path.add(0, step);
					}
					return path;
				}
				next.add(target);
			}
		}
		return null;
	}

	private static String describe(Edge closing, List<Edge> back) {
		String cycle = closing.outer().quoted() + " -> " + closing.inner().quoted() + " -> "
				+ back.stream().map((edge) -> edge.inner().quoted()).collect(Collectors.joining(" -> "));
		StringBuilder text = new StringBuilder("Lock order inversion: ").append(cycle)
			.append(". Instances running these calls at the same time can deadlock.\n");
		text.append("This test: ").append(closing.describe());
		for (Edge edge : back) {
			text.append("\nEarlier: ").append(edge.describe());
		}
		return text.toString();
	}

	/**
	 * Return where the lock was asked for: the frames of the calling code, without those
	 * of distlock's engine and advice, Spring's proxies, reflection and the test engine.
	 */
	private static List<StackTraceElement> callPath() {
		return StackWalker.getInstance()
			.walk((frames) -> frames.takeWhile((frame) -> !frame.getClassName().startsWith("org.junit."))
				.filter((frame) -> !skipped(frame.getClassName()))
				.limit(MAX_FRAMES)
				.map(StackWalker.StackFrame::toStackTraceElement)
				.toList());
	}

	private static boolean skipped(String className) {
		return className.equals(LockOrderChecker.class.getName())
				|| className.startsWith(LockOrderChecker.class.getName() + "$")
				|| SKIPPED_FRAMES.stream().anyMatch(className::startsWith);
	}

	private record Acquisition(String name, String key, String thread, List<StackTraceElement> callPath) {

		String quoted() {
			return "'" + LogSafe.escape(this.name) + "'";
		}

		String describe(String what) {
			StringBuilder text = new StringBuilder("    ").append(what)
				.append(' ')
				.append(quoted())
				.append(" (key '")
				.append(LogSafe.escape(this.key))
				.append("') on thread ")
				.append(LogSafe.escape(this.thread));
			this.callPath.forEach((frame) -> text.append("\n        at ").append(frame));
			return text.toString();
		}

	}

	private record Edge(Acquisition outer, Acquisition inner) {

		String describe() {
			return this.inner.quoted() + " taken while holding " + this.outer.quoted() + "\n"
					+ this.outer.describe("held") + "\n" + this.inner.describe("then asked for");
		}

	}

}
