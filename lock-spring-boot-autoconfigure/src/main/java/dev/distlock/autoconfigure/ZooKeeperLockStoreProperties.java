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
	 * Session timeout asked of the ensemble: how long after a crash its locks are freed.
	 * distlock.watchdog-lease must not exceed it.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(60);

	/**
	 * Longest wait for a connection to the ensemble, and for an answer to one operation,
	 * before it fails closed.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(15);

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

}
