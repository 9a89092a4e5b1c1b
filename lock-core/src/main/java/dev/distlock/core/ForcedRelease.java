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
package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * What {@link DefaultLockClient#forceRelease(String)} did.
 *
 * @param key the lock key
 * @param released whether a holder's lock was deleted ({@code false}: the key was free)
 * @param holderClientId the client id of the holder whose lock was deleted, when it is a
 * distlock client
 * @param heldByThisClient whether the holder was the releasing client, whose holder then
 * learns the loss when it releases
 * @author distlock
 * @since 0.1.0
 */
public record ForcedRelease(String key, boolean released, @Nullable String holderClientId, boolean heldByThisClient) {

}
