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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.store.LockStore.FairGrant;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which listeners a release message runs, and the grant a fair waiter reads from it.
 *
 * @author distlock
 */
class ChannelListenersTests {

	private static final String TOKEN = "5f0c1d2e-client:42";

	private final ChannelListeners listeners = new ChannelListeners();

	@Test
	void aGrantMessageRunsItsWaitersListenerAndEveryListenerOfAllReleasesButNoOtherWaiters() {
		List<String> heard = new ArrayList<>();
		this.listeners.add("channel",
				new ChannelListeners.Listener(TOKEN, (message) -> heard.add("waiter " + message)));
		this.listeners.add("channel",
				new ChannelListeners.Listener("other-client:1", (message) -> heard.add("other " + message)));
		this.listeners.add("channel", new ChannelListeners.Listener(null, (message) -> heard.add("all " + message)));
		this.listeners.wake("channel", TOKEN + " 1700000000000001 1700000000000 2000");
		assertThat(heard).containsExactlyInAnyOrder("waiter " + TOKEN + " 1700000000000001 1700000000000 2000",
				"all " + TOKEN + " 1700000000000001 1700000000000 2000");
	}

	@Test
	void aWaiterReadsTheGrantMadeToItFromItsMessage() {
		assertThat(ChannelListeners.fairGrant(TOKEN + " 1700000000000001 1700000000000 2000", TOKEN))
			.isEqualTo(new FairGrant(1700000000000001L, 1700000000000L, Duration.ofSeconds(2)));
	}

	@Test
	void noGrantIsReadFromAWakeUpWithoutOneOrFromAnotherWaitersGrant() {
		assertThat(ChannelListeners.fairGrant(null, TOKEN)).isNull();
		assertThat(ChannelListeners.fairGrant(ChannelListeners.BROADCAST, TOKEN)).isNull();
		assertThat(ChannelListeners.fairGrant(TOKEN, TOKEN)).isNull();
		assertThat(ChannelListeners.fairGrant("other-client:1 17 1700000000000 2000", TOKEN)).isNull();
		assertThat(ChannelListeners.fairGrant(TOKEN + " 17 not-a-clock 2000", TOKEN)).isNull();
	}

}
