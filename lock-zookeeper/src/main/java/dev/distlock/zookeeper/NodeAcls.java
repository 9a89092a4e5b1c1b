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

import org.apache.curator.framework.api.ACLBackgroundPathAndBytesable;
import org.apache.curator.framework.api.ACLPathAndBytesable;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

/**
 * The store's ACL on the nodes it creates: every create, in the background or in a
 * transaction, goes through here, so that a store with an ACL sets it on each node and
 * one without leaves the client's default.
 *
 * @author distlock
 */
final class NodeAcls {

	private NodeAcls() {
	}

	/**
	 * Return {@code create} with {@code acl} applied to the node it creates (and to
	 * parents it creates), or unchanged when {@code acl} is {@code null}.
	 */
	static ACLBackgroundPathAndBytesable<String> apply(ACLBackgroundPathAndBytesable<String> create,
			@Nullable List<ACL> acl) {
		return (acl != null) ? (ACLBackgroundPathAndBytesable<String>) create.withACL(acl, true) : create;
	}

	/**
	 * Return the transaction's {@code create} with {@code acl} applied, or unchanged when
	 * {@code acl} is {@code null}.
	 */
	static ACLPathAndBytesable<CuratorOp> apply(ACLPathAndBytesable<CuratorOp> create, @Nullable List<ACL> acl) {
		return (acl != null) ? (ACLPathAndBytesable<CuratorOp>) create.withACL(acl) : create;
	}

}
