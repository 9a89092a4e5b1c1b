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

package dev.distlock.autoconfigure.zookeeper;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Properties of the ZooKeeper lock store ({@code distlock.zookeeper.*}), used when
 * {@code lock-zookeeper} is present. The connection properties apply only when the
 * application has no {@code CuratorFramework} bean of its own.
 *
 * @author distlock
 * @since 0.1.0
 */
@ConfigurationProperties("distlock.zookeeper")
public class ZooKeeperLockStoreProperties {

	/**
	 * ZooKeeper servers to connect to, as host:port pairs separated by commas, when the
	 * application has no CuratorFramework bean.
	 */
	private @Nullable String connectString;

	/**
	 * Absolute ZooKeeper path under which the locks' nodes are created.
	 */
	private String basePath = "/distlock";

	/**
	 * Session timeout distlock's own client asks of the ensemble: how long after a crash
	 * its locks are freed. distlock.watchdog-lease must not exceed a third of the timeout
	 * the ensemble negotiates.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(60);

	/**
	 * Longest wait for a connection to the ensemble, and for an answer to one operation,
	 * before it fails closed.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(15);

	/**
	 * ACL of every node the store creates, the base path included.
	 */
	private Acl acl = Acl.AUTO;

	/**
	 * Authentication of distlock's own client.
	 */
	private final Auth auth = new Auth();

	/**
	 * Return the servers to connect to.
	 * @return the connect string, or {@code null} to use the application's client
	 */
	public @Nullable String getConnectString() {
		return this.connectString;
	}

	/**
	 * Set the servers to connect to.
	 * @param connectString the connect string
	 */
	public void setConnectString(@Nullable String connectString) {
		this.connectString = connectString;
	}

	/**
	 * Return the base path.
	 * @return the base path
	 */
	public String getBasePath() {
		return this.basePath;
	}

	/**
	 * Set the base path.
	 * @param basePath the base path
	 */
	public void setBasePath(String basePath) {
		this.basePath = basePath;
	}

	/**
	 * Return the session timeout.
	 * @return the session timeout
	 */
	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	/**
	 * Set the session timeout.
	 * @param sessionTimeout the session timeout
	 */
	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	/**
	 * Return the connection timeout.
	 * @return the connection timeout
	 */
	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	/**
	 * Set the connection timeout.
	 * @param connectionTimeout the connection timeout
	 */
	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	/**
	 * Return the ACL of the store's nodes.
	 * @return the ACL
	 */
	public Acl getAcl() {
		return this.acl;
	}

	/**
	 * Set the ACL of the store's nodes.
	 * @param acl the ACL
	 */
	public void setAcl(Acl acl) {
		this.acl = acl;
	}

	/**
	 * Return the authentication of distlock's own client.
	 * @return the authentication
	 */
	public Auth getAuth() {
		return this.auth;
	}

	/**
	 * The ACL of the store's nodes.
	 */
	public enum Acl {

		/**
		 * CREATOR_ALL when distlock's own client authenticates, else the client's ACL
		 * provider's (open to everyone unless the application's client sets one).
		 */
		AUTO,

		/**
		 * The client's ACL provider's.
		 */
		CLIENT,

		/**
		 * All rights to the identity that created the node, nothing to anybody else. The
		 * client must be authenticated (digest or SASL).
		 */
		CREATOR_ALL

	}

	/**
	 * Digest authentication of distlock's own client, ignored when the application has a
	 * CuratorFramework bean (configure its authorization there).
	 */
	public static class Auth {

		/**
		 * User name of ZooKeeper digest authentication. Unset, the client does not
		 * authenticate (SASL is configured through JAAS system properties instead).
		 */
		private @Nullable String username;

		/**
		 * Password of ZooKeeper digest authentication.
		 */
		private @Nullable String password;

		/**
		 * Return the user name.
		 * @return the user name, or {@code null} not to authenticate
		 */
		public @Nullable String getUsername() {
			return this.username;
		}

		/**
		 * Set the user name.
		 * @param username the user name
		 */
		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		/**
		 * Return the password.
		 * @return the password
		 */
		public @Nullable String getPassword() {
			return this.password;
		}

		/**
		 * Set the password.
		 * @param password the password
		 */
		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

}
