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

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * One Lua script of the store: its source (the key locals, the helpers it uses, its
 * body), the kind of reply it gives, and the {@link RedisScript} form for a
 * {@link org.springframework.data.redis.core.RedisTemplate}.
 *
 * @author distlock
 * @since 0.1.0
 */
final class LuaScript {

	private final String name;

	private final String description;

	private final String source;

	private final Reply reply;

	private final RedisScript<?> redisScript;

	private LuaScript(String name, String source, Reply reply) {
		this.name = name;
		this.description = "script " + name;
		this.source = source;
		this.reply = reply;
		this.redisScript = RedisScript.of(source, reply.type);
	}

	/**
	 * Build a script from the protocol's literals ({@link LuaHelpers#PROTOCOL_LOCALS}), a
	 * prelude, the helpers it uses, in order, and its body.
	 * @param name the script's name, for errors
	 * @param reply the kind of reply
	 * @param prelude the key locals
	 * @param helpers the helper functions the body (or another helper) calls
	 * @param body the script's own code
	 * @return the script
	 */
	static LuaScript of(String name, Reply reply, String prelude, List<LuaHelper> helpers, String body) {
		StringBuilder source = new StringBuilder(LuaHelpers.PROTOCOL_LOCALS).append(prelude);
		helpers.forEach((helper) -> source.append(helper.source()));
		return new LuaScript(name, source.append(body).toString(), reply);
	}

	String name() {
		return this.name;
	}

	/**
	 * Return what the script is called in errors ({@code script <name>}), built once.
	 * @return the description
	 */
	String description() {
		return this.description;
	}

	String source() {
		return this.source;
	}

	String sha1() {
		return this.redisScript.getSha1();
	}

	Reply reply() {
		return this.reply;
	}

	RedisScript<?> redisScript() {
		return this.redisScript;
	}

	@Override
	public String toString() {
		return this.name;
	}

	/**
	 * What a script answers.
	 */
	enum Reply {

		/**
		 * An integer ({@link Long}).
		 */
		INTEGER(Long.class),

		/**
		 * An array of integers and strings ({@link List}).
		 */
		MULTI(List.class),

		/**
		 * A string, or nothing ({@link String}).
		 */
		VALUE(String.class);

		private final Class<?> type;

		Reply(Class<?> type) {
			this.type = type;
		}

	}

	/**
	 * A Lua helper function a script may ship.
	 *
	 * @param name the function's name
	 * @param source its definition
	 */
	record LuaHelper(String name, String source) {

	}

}
