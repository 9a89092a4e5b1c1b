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
 * The lock engine: {@link dev.distlock.core.LockClient} hands out
 * {@link dev.distlock.core.LockHandle lock handles} backed by a
 * {@link dev.distlock.store.LockStore}, the SPI every backend implements.
 */
@NullMarked
package dev.distlock.core;

import org.jspecify.annotations.NullMarked;
