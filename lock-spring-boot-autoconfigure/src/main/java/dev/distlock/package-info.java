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

/**
 * Exceptions of the {@code @DistributedLock} advice: an invalid key expression, and a
 * locked method that completed although its lock could not be released cleanly. In the
 * package of the exceptions every layer shares ({@code lock-core}), so that one
 * {@code catch} clause imports them all.
 */
@NullMarked
package dev.distlock;

import org.jspecify.annotations.NullMarked;
