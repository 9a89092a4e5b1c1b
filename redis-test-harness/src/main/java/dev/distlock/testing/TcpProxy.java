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

package dev.distlock.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.distlock.testing.redis.RedisEndpoint;

/**
 * A TCP proxy on loopback that a test puts in front of one server (Redis, a database,
 * ZooKeeper), to delay, freeze or cut its links. Each direction of each connection has a
 * reader and a writer thread: the reader queues what it reads, the writer forwards it
 * once the direction's delay has passed and the link is not frozen. When either side
 * closes, bytes still queued towards the other side are dropped, as a crashed host's
 * unsent buffers are.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class TcpProxy implements AutoCloseable {

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket server;

	private final Set<Link> links = ConcurrentHashMap.newKeySet();

	private volatile long toClientDelayNanos;

	private volatile long toServerDelayNanos;

	private volatile boolean frozen;

	private volatile boolean closed;

	private TcpProxy(String targetHost, int targetPort) throws IOException {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "proxy-accept-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Start a proxy to {@code target} on a free loopback port.
	 * @param target where to forward connections
	 * @return the running proxy
	 */
	public static TcpProxy start(RedisEndpoint target) {
		return start(target.host(), target.port());
	}

	/**
	 * Start a proxy to {@code host:port} on a free loopback port.
	 * @param host where to forward connections
	 * @param port the port to forward them to
	 * @return the running proxy
	 */
	public static TcpProxy start(String host, int port) {
		try {
			return new TcpProxy(host, port);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start a proxy to " + host + ":" + port, ex);
		}
	}

	/**
	 * Return where clients connect, as {@code host:port}.
	 * @return the proxy's address
	 */
	public String address() {
		return "127.0.0.1:" + this.server.getLocalPort();
	}

	/**
	 * Return where clients connect.
	 * @return the proxy's endpoint
	 */
	public RedisEndpoint endpoint() {
		return new RedisEndpoint("127.0.0.1", this.server.getLocalPort());
	}

	/**
	 * Delay everything the server sends to the clients.
	 * @param delay the delay
	 */
	public void delayToClients(Duration delay) {
		this.toClientDelayNanos = delay.toNanos();
	}

	/**
	 * Stop forwarding in both directions, holding what arrives; the connections stay
	 * open, as across a network partition.
	 */
	public void freeze() {
		this.frozen = true;
	}

	/**
	 * Forward again what was held and what comes next.
	 */
	public void thaw() {
		this.frozen = false;
	}

	/**
	 * Close every link open now, dropping what is queued on them, as a crashed switch
	 * would; new connections are still accepted.
	 */
	public void cut() {
		this.links.forEach(Link::close);
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.links.forEach(Link::close);
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket();
				try {
					upstream.connect(new InetSocketAddress(this.targetHost, this.targetPort), 1000);
				}
				catch (IOException ex) {
					client.close();
					upstream.close();
					continue;
				}
				Link link = new Link(client, upstream);
				this.links.add(link);
				link.start();
			}
			catch (IOException ex) {
				if (!this.closed) {
					sleep(10);
				}
			}
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * One proxied connection.
	 */
	private final class Link {

		private final Socket client;

		private final Socket upstream;

		private volatile boolean broken;

		Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void start() throws IOException {
			pump(this.client.getInputStream(), this.upstream.getOutputStream(), true);
			pump(this.upstream.getInputStream(), this.client.getOutputStream(), false);
		}

		private void pump(InputStream from, OutputStream to, boolean toServer) {
			BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
			String name = "proxy-" + TcpProxy.this.server.getLocalPort() + (toServer ? "-up" : "-down");
			Thread reader = new Thread(() -> {
				byte[] buffer = new byte[16384];
				try {
					int read;
					while ((read = from.read(buffer)) >= 0) {
						queue.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime()));
					}
				}
				catch (IOException ex) {
					// the link broke
				}
				close();
			}, name + "-read");
			Thread writer = new Thread(() -> {
				try {
					while (!this.broken) {
						Chunk chunk = queue.poll(50, TimeUnit.MILLISECONDS);
						if (chunk == null) {
							continue;
						}
						long due = chunk.readAt()
								+ (toServer ? TcpProxy.this.toServerDelayNanos : TcpProxy.this.toClientDelayNanos);
						while (!this.broken && (TcpProxy.this.frozen || System.nanoTime() - due < 0)) {
							sleep(1);
						}
						if (this.broken) {
							return;
						}
						to.write(chunk.bytes());
						to.flush();
					}
				}
				catch (IOException ex) {
					close();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, name + "-write");
			reader.setDaemon(true);
			writer.setDaemon(true);
			reader.start();
			writer.start();
		}

		void close() {
			this.broken = true;
			try {
				this.client.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
			try {
				this.upstream.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
			TcpProxy.this.links.remove(this);
		}

	}

	private record Chunk(byte[] bytes, long readAt) {

	}

}
