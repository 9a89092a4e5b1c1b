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

package dev.distlock.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.env.Environment;

/**
 * The sample's HTTP test client: JSON requests to a running sample on
 * {@code local.server.port}, answers as text or JSON. One client for every test that
 * calls the sample over HTTP.
 *
 * @author distlock
 */
public final class SampleHttp {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	private final Supplier<@Nullable String> port;

	/**
	 * Create a client of the sample whose environment is {@code environment}.
	 * @param environment the sample's environment, with {@code local.server.port} once it
	 * listens
	 */
	public SampleHttp(Environment environment) {
		this.port = () -> environment.getProperty("local.server.port");
	}

	/**
	 * POST {@code body} as JSON.
	 * @param path the path, for example {@code /api/vouchers}
	 * @param body the body, or {@code null} for none
	 * @param userId the {@code X-User-Id} header, or {@code null} for none
	 * @return the answer
	 */
	public HttpResponse<String> post(String path, @Nullable Map<String, ?> body, @Nullable String userId) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json");
		if (userId != null) {
			request.header("X-User-Id", userId);
		}
		request.POST(
				(body != null) ? BodyPublishers.ofString(this.json.writeValueAsString(body)) : BodyPublishers.noBody());
		return send(request.build());
	}

	/**
	 * GET {@code path}.
	 * @param path the path
	 * @return the answer
	 */
	public HttpResponse<String> get(String path) {
		return send(HttpRequest.newBuilder(uri(path)).GET().build());
	}

	/**
	 * DELETE {@code path}.
	 * @param path the path
	 * @return the answer
	 */
	public HttpResponse<String> delete(String path) {
		return send(HttpRequest.newBuilder(uri(path)).DELETE().build());
	}

	/**
	 * Return the body of {@code response} as JSON.
	 * @param response the answer
	 * @return its body
	 */
	public JsonNode body(HttpResponse<String> response) {
		return this.json.readTree(response.body());
	}

	/**
	 * Return the address of {@code path} on the sample.
	 * @param path the path, with or without its leading {@code /}
	 * @return the address
	 */
	public URI uri(String path) {
		return URI.create("http://localhost:" + this.port.get() + (path.startsWith("/") ? "" : "/") + path);
	}

	/**
	 * Send {@code request}.
	 * @param request the request
	 * @return the answer
	 */
	public HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
