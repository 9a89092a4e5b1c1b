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
package dev.distlock.store;

/**
 * An optional behaviour of a {@link LockStore}, beyond its required operations: read
 * locks ({@link ReadLockExtension}), a fair queue ({@link FairQueueExtension}), waking
 * one waiting client ({@link WakeOneExtension}), hand-over between the holder and its
 * client's next caller ({@link HandOverExtension}), several keys in one step
 * ({@link SeveralKeysExtension}), and inspection with force release
 * ({@link InspectionExtension}).
 * <p>
 * A store offers an extension by implementing its interface, and lacks it by not
 * implementing it: there is no other way to say "unsupported". The client looks every
 * extension up once, when it is built, with {@link LockStore#extension(Class)}. An
 * extension never changes what a required operation of {@link LockStore} means: what it
 * adds, it adds with its own methods.
 *
 * @author distlock
 * @since 0.1.0
 */
public interface LockStoreExtension {

}
