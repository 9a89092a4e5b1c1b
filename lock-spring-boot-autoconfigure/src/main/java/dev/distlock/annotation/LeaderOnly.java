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

package dev.distlock.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Run the annotated method only while this instance leads its
 * {@link dev.distlock.leader.Leadership} ({@code distlock.leader.enabled=true}); on every
 * other instance the call returns at once as a busy
 * {@link DistributedLock @DistributedLock} method with {@link OnBusy#SKIP} does:
 * {@code null}, {@code Optional.empty()}, a future completed with {@code null}, an empty
 * {@code Mono} or {@code Flux}, or no value for {@code void}. <pre class="code">
 * &#064;Scheduled(fixedDelay = 60_000)
 * &#064;LeaderOnly
 * public void sendReminders() { ... }
 * </pre>
 * <p>
 * Leadership is checked once, when the method is called: it is not held for the method's
 * duration, and may be lost while the method runs. Pass
 * {@link dev.distlock.leader.Leadership#fencingToken()} to the resource the method writes
 * to, so that a write of a former leader is refused. A method returning a primitive other
 * than {@code void} has no empty result and fails at startup, as does any use while
 * leadership is not enabled. Like {@code @Transactional}, it applies to calls through the
 * Spring proxy of the bean.
 *
 * @author distlock
 * @since 0.1.0
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

}
