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
package dev.distlock.sample.observability;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import dev.distlock.autoconfigure.observation.LockObservationContext;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.jspecify.annotations.Nullable;

/**
 * Test {@link ObservationHandler} that records every stopped {@code distlock.lock}
 * observation with its key values and events; Spring Boot registers it with the
 * application's {@link io.micrometer.observation.ObservationRegistry}.
 *
 * @author distlock
 */
public class LockObservations implements ObservationHandler<LockObservationContext> {

	private final List<Recorded> stopped = new CopyOnWriteArrayList<>();

	private final List<String> events = new CopyOnWriteArrayList<>();

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

	@Override
	public void onEvent(Observation.Event event, LockObservationContext context) {
		this.events.add(context.getKey() + " " + event.getName());
	}

	@Override
	public void onStop(LockObservationContext context) {
		this.stopped.add(new Recorded(context.getName(), context.getContextualName(),
				context.getLowCardinalityKeyValues().stream().toList(),
				context.getHighCardinalityKeyValues().stream().toList()));
	}

	/**
	 * Return the stopped observations so far.
	 * @return the observations
	 */
	public List<Recorded> stopped() {
		return List.copyOf(this.stopped);
	}

	/**
	 * Return the events so far, as {@code "<key> <event name>"}.
	 * @return the events
	 */
	public List<String> events() {
		return List.copyOf(this.events);
	}

	/**
	 * One stopped observation.
	 *
	 * @param name the observation name
	 * @param contextualName the contextual (span) name
	 * @param low the low-cardinality key values
	 * @param high the high-cardinality key values
	 */
	public record Recorded(String name, String contextualName, List<KeyValue> low, List<KeyValue> high) {

		/**
		 * Return the value of a low- or high-cardinality key.
		 * @param key the key
		 * @return the value, or {@code null}
		 */
		public @Nullable String value(String key) {
			return Stream.concat(this.low.stream(), this.high.stream())
				.filter((keyValue) -> keyValue.getKey().equals(key))
				.map(KeyValue::getValue)
				.findFirst()
				.orElse(null);
		}

	}

}
