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

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.distlock.annotation.LeaderOnly;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.leader.Leadership;
import dev.distlock.leader.LeadershipGrantedEvent;
import dev.distlock.leader.LeadershipRevokedEvent;
import dev.distlock.leader.LeadershipRevokedEvent.Reason;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leadership between two instances of an application (two application contexts) sharing
 * one lock store; each store's test class says how they share it. A sampler reads both
 * instances' {@link Leadership#isLeader()} every millisecond throughout, and the events
 * of both are recorded on one clock ({@link System#nanoTime()}).
 *
 * @author distlock
 */
abstract class LeadershipScenarios {

	static final Duration RETRY = Duration.ofMillis(200);

	/**
	 * Added to every bound, for scheduling on a loaded machine.
	 */
	static final Duration MARGIN = Duration.ofSeconds(2);

	final String name = "leadership-" + UUID.randomUUID().toString().substring(0, 8);

	private final Timeline timeline = new Timeline();

	/**
	 * Return the watchdog lease of the leader lock: short, so that each scenario is.
	 * @return the lease
	 */
	Duration lease() {
		return Duration.ofSeconds(1);
	}

	/**
	 * Configure one instance for the store both instances share.
	 * @param runner the instance
	 * @return the instance on the store
	 */
	abstract ApplicationContextRunner onStore(ApplicationContextRunner runner);

	/**
	 * Cut the leader off from the store as a network failure would, or kill its session.
	 * @param leader the leader
	 * @return how long after this the store may grant the lock to another instance, at
	 * the latest
	 */
	Duration cutOff(ApplicationContext leader) {
		leader.getBean(CutOffLockStore.class).cutOff();
		return lease();
	}

	@Test
	void exactlyOneInstanceLeadsAndOnlyItRunsLeaderOnlyMethods() throws Throwable {
		twoInstances((a, b) -> {
			try (LeaderSampler sampler = new LeaderSampler(leadership(a), leadership(b))) {
				Roles roles = awaitLeader(a, b);
				// across several renewals of the leader lock
				await().during(lease())
					.atMost(lease().plus(MARGIN))
					.until(() -> leadership(roles.leader()).isLeader() && !leadership(roles.other()).isLeader());
				assertThat(reports(roles.leader()).publish()).isEqualTo("published");
				assertThat(reports(roles.other()).publish()).isNull();
				assertThat(reports(roles.leader()).runs()).isOne();
				assertThat(reports(roles.other()).runs()).isZero();
				assertThat(leadership(roles.leader()).fencingToken()).isPresent();
				assertThat(leadership(roles.other()).fencingToken()).isEmpty();
				assertThat(this.timeline.entries).singleElement()
					.satisfies((entry) -> assertThat(entry.instance()).isEqualTo(id(roles.leader())))
					.satisfies((entry) -> assertThat(entry.granted()).isTrue());
				assertThat(sampler.samples()).isGreaterThan(100);
				assertThat(sampler.bothLeading()).isZero();
			}
		});
	}

	@Test
	void aStoppedLeaderIsRevokedBeforeTheOtherInstanceIsGranted() throws Throwable {
		twoInstances((a, b) -> {
			Roles roles = awaitLeader(a, b);
			try (LeaderSampler sampler = new LeaderSampler(leadership(a), leadership(b))) {
				roles.leader().close();
				await().atMost(lease().plus(RETRY).plus(MARGIN)).until(() -> leadership(roles.other()).isLeader());
				assertRevokedBeforeGranted(roles, Reason.STOPPED);
				assertThat(sampler.bothLeading()).isZero();
			}
		});
	}

	@Test
	void aLeaderCutOffFromTheStoreIsRevokedBeforeTheOtherInstanceIsGranted() throws Throwable {
		twoInstances((a, b) -> {
			Roles roles = awaitLeader(a, b);
			try (LeaderSampler sampler = new LeaderSampler(leadership(a), leadership(b))) {
				Duration takeOver = cutOff(roles.leader());
				await().atMost(takeOver.plus(RETRY).plus(MARGIN)).until(() -> leadership(roles.other()).isLeader());
				assertRevokedBeforeGranted(roles, Reason.LOST);
				assertThat(leadership(roles.leader()).isLeader()).isFalse();
				assertThat(sampler.bothLeading()).isZero();
			}
		});
	}

	@Test
	void aLeaderThatYieldsIsRevokedBeforeTheOtherInstanceIsGranted() throws Throwable {
		twoInstances((a, b) -> {
			Roles roles = awaitLeader(a, b);
			try (LeaderSampler sampler = new LeaderSampler(leadership(a), leadership(b))) {
				leadership(roles.leader()).yieldLeadership();
				assertThat(leadership(roles.leader()).isLeader()).isFalse();
				assertThat(isRevoked(id(roles.leader()))).isTrue();
				await().atMost(RETRY.multipliedBy(2).plus(MARGIN)).until(() -> leadership(roles.other()).isLeader());
				assertRevokedBeforeGranted(roles, Reason.YIELDED);
				assertThat(sampler.bothLeading()).isZero();
			}
		});
	}

	/**
	 * A lock taken behind the leader's back (an operator deleting the key in the store)
	 * is noticed at the leader's next renewal, a third of the lease later at most: the
	 * documented window in which both instances may lead. It is bounded, and the former
	 * leader is revoked.
	 */
	@Test
	void aLeaderWhoseLockIsTakenIsRevokedAtItsNextRenewal() throws Throwable {
		twoInstances((a, b) -> {
			Roles roles = awaitLeader(a, b);
			try (LeaderSampler sampler = new LeaderSampler(leadership(a), leadership(b))) {
				assertThat(roles.other()
					.getBean(DefaultLockClient.class)
					.forceRelease(Leadership.key(this.name))
					.released()).isTrue();
				await().atMost(lease().plus(RETRY).plus(MARGIN)).until(() -> leadership(roles.other()).isLeader());
				await().atMost(lease().dividedBy(3).plus(MARGIN)).until(() -> isRevoked(id(roles.leader())));
				assertThat(this.timeline.last(id(roles.leader()))).extracting(Timeline.Entry::reason)
					.isEqualTo(Reason.LOST);
				assertThat(leadership(roles.leader()).isLeader()).isFalse();
				assertThat(sampler.longestOverlap()).isLessThan(lease().dividedBy(3).plus(MARGIN));
			}
		});
	}

	private void assertRevokedBeforeGranted(Roles roles, Reason reason) {
		// The granted event follows the new leader's isLeader() turning true
		await().atMost(MARGIN).until(() -> isGranted(id(roles.other())));
		Timeline.Entry revoked = this.timeline.last(id(roles.leader()));
		Timeline.Entry granted = this.timeline.last(id(roles.other()));
		assertThat(revoked).isNotNull();
		assertThat(granted).isNotNull();
		assertThat(revoked.granted()).isFalse();
		assertThat(revoked.reason()).isEqualTo(reason);
		assertThat(granted.granted()).isTrue();
		assertThat(revoked.nanos()).isLessThan(granted.nanos());
	}

	private boolean isGranted(String instance) {
		Timeline.Entry last = this.timeline.last(instance);
		return last != null && last.granted();
	}

	private boolean isRevoked(String instance) {
		Timeline.Entry last = this.timeline.last(instance);
		return last != null && !last.granted();
	}

	private void twoInstances(TwoInstances scenario) {
		instance("a").run((a) -> instance("b").run((b) -> {
			assertThat(a).hasNotFailed();
			assertThat(b).hasNotFailed();
			scenario.run(a, b);
		}));
	}

	private ApplicationContextRunner instance(String id) {
		return onStore(new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockAutoConfiguration.class, LockAspectAutoConfiguration.class,
					LeadershipAutoConfiguration.class))
			.withUserConfiguration(LeaderApplication.class)
			.withBean(Timeline.class, () -> this.timeline)
			.withPropertyValues("distlock.leader.enabled=true", "distlock.leader.name=" + this.name,
					"distlock.leader.retry-interval=" + RETRY.toMillis() + "ms",
					"distlock.watchdog-lease=" + lease().toMillis() + "ms", "test.instance=" + id));
	}

	private Roles awaitLeader(AssertableApplicationContext a, AssertableApplicationContext b) {
		await().atMost(lease().plus(RETRY).plus(MARGIN))
			.until(() -> leadership(a).isLeader() || leadership(b).isLeader());
		return leadership(a).isLeader() ? new Roles(a, b) : new Roles(b, a);
	}

	private static Leadership leadership(ApplicationContext context) {
		return context.getBean(Leadership.class);
	}

	private static Reports reports(ApplicationContext context) {
		return context.getBean(Reports.class);
	}

	private static String id(ApplicationContext context) {
		return context.getEnvironment().getProperty("test.instance", "");
	}

	@FunctionalInterface
	interface TwoInstances {

		void run(AssertableApplicationContext a, AssertableApplicationContext b) throws Throwable;

	}

	record Roles(AssertableApplicationContext leader, AssertableApplicationContext other) {

	}

	/**
	 * The events of both instances, in the order they were published, on one clock.
	 */
	static final class Timeline {

		final List<Entry> entries = new CopyOnWriteArrayList<>();

		void record(String instance, ApplicationEvent event) {
			if (event instanceof LeadershipGrantedEvent) {
				this.entries.add(new Entry(instance, true, null, System.nanoTime()));
			}
			else if (event instanceof LeadershipRevokedEvent revoked) {
				this.entries.add(new Entry(instance, false, revoked.getReason(), System.nanoTime()));
			}
		}

		@Nullable Entry last(String instance) {
			Entry last = null;
			for (Entry entry : this.entries) {
				if (entry.instance().equals(instance)) {
					last = entry;
				}
			}
			return last;
		}

		record Entry(String instance, boolean granted, @Nullable Reason reason, long nanos) {

		}

	}

	/**
	 * Reads whether each instance leads, every millisecond, on a thread of its own.
	 */
	static final class LeaderSampler implements AutoCloseable {

		private final Leadership[] instances;

		private final Thread thread;

		private volatile boolean stopped;

		private volatile long samples;

		private volatile long bothLeading;

		private volatile long longestOverlapNanos;

		LeaderSampler(Leadership... instances) {
			this.instances = instances;
			this.thread = new Thread(this::sample, "leader-sampler");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		private void sample() {
			long overlapStart = 0;
			while (!this.stopped) {
				int leaders = 0;
				for (Leadership instance : this.instances) {
					leaders += instance.isLeader() ? 1 : 0;
				}
				long now = System.nanoTime();
				if (leaders > 1) {
					this.bothLeading++;
					if (overlapStart == 0) {
						overlapStart = now;
					}
					this.longestOverlapNanos = Math.max(this.longestOverlapNanos, now - overlapStart);
				}
				else {
					overlapStart = 0;
				}
				this.samples++;
				LockSupport.parkNanos(1_000_000);
			}
		}

		long samples() {
			return this.samples;
		}

		long bothLeading() {
			return this.bothLeading;
		}

		Duration longestOverlap() {
			return Duration.ofNanos(this.longestOverlapNanos);
		}

		@Override
		public void close() throws InterruptedException {
			this.stopped = true;
			this.thread.join();
		}

	}

	/**
	 * A job only the leader runs.
	 */
	static class Reports {

		private final AtomicInteger runs = new AtomicInteger();

		@LeaderOnly
		public @Nullable String publish() {
			this.runs.incrementAndGet();
			return "published";
		}

		public int runs() {
			return this.runs.get();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeaderApplication {

		@Bean
		static BeanPostProcessor cutOffLockStores() {
			return CutOffLockStore.wrapping();
		}

		@Bean
		Reports reports() {
			return new Reports();
		}

		@Bean
		ApplicationListener<ApplicationEvent> leadershipEvents(Timeline timeline, Environment environment) {
			String instance = environment.getProperty("test.instance", "");
			return (event) -> timeline.record(instance, event);
		}

	}

}
