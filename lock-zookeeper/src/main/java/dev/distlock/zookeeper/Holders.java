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

package dev.distlock.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Finds the child of a key's node that holds the lock: the lowest-numbered child named as
 * the store names its grants and ephemeral. A child named otherwise, or a persistent one
 * (no store's session creates one, so somebody else wrote it), holds nothing and is
 * skipped, so a forged child cannot lock a key. A listing has no stats: each candidate is
 * read with an {@code exists} from the lowest up, unless its stat is already known (a
 * grant's own, from its create), so an uncontended grant costs no read.
 *
 * @author distlock
 * @since 0.1.0
 */
final class Holders {

	private final ZooKeeperLockStore store;

	Holders(ZooKeeperLockStore store) {
		this.store = store;
	}

	/**
	 * Return the holder among {@code children} of the node of {@code key}, or
	 * {@code null} when none holds.
	 * @param key the lock key
	 * @param children the children of its node
	 * @param known the stats already read, by child name
	 * @param what what the caller does, for failures
	 * @return the holder and its stat, or {@code null}
	 */
	CompletableFuture<@Nullable Holder> find(String key, List<String> children, Map<String, Stat> known, String what) {
		return from(key, LockPaths.candidates(children), 0, known, what);
	}

	private CompletableFuture<@Nullable Holder> from(String key, List<String> candidates, int index,
			Map<String, Stat> known, String what) {
		if (index >= candidates.size()) {
			return CompletableFuture.<@Nullable Holder>completedFuture(null);
		}
		String name = candidates.get(index);
		Stat stat = known.get(name);
		CompletableFuture<@Nullable Stat> read = (stat != null)
				? CompletableFuture.<@Nullable Stat>completedFuture(stat)
				: this.store.stat(key, this.store.paths().child(key, name), what);
		return read
			.<@Nullable Holder>thenCompose((found) -> holderOrNext(key, candidates, index, known, what, name, found));
	}

	private CompletableFuture<@Nullable Holder> holderOrNext(String key, List<String> candidates, int index,
			Map<String, Stat> known, String what, String name, @Nullable Stat found) {
		if (found != null && found.getEphemeralOwner() != 0) {
			return CompletableFuture.<@Nullable Holder>completedFuture(new Holder(name, found));
		}
		return from(key, candidates, index + 1, known, what);
	}

	/**
	 * The child holding a key's lock.
	 *
	 * @param name its name
	 * @param stat its stat: its creation zxid is the fencing token
	 */
	record Holder(String name, Stat stat) {

		/**
		 * Return whether this holder is one of {@code grants}.
		 */
		boolean isOneOf(List<String> grants) {
			return grants.contains(this.name);
		}

	}

}
