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

package dev.distlock.aop;

import dev.distlock.InvalidLockKeyException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.TypeConverter;

/**
 * The type converter of key expressions: SpEL's {@code +} and method arguments turn
 * values into text through it, and it refuses to do so for a value whose text is its
 * identity ({@link KeyValues}), so that {@code 'order:' + #order} fails when
 * {@code Order} has no {@code toString()}, wherever the concatenation sits in the
 * expression. Every other conversion is delegated.
 *
 * @author distlock
 */
final class KeyTextConverter implements TypeConverter {

	private final TypeConverter delegate;

	private final LockOperation operation;

	KeyTextConverter(TypeConverter delegate, LockOperation operation) {
		this.delegate = delegate;
		this.operation = operation;
	}

	/**
	 * Claim to convert identity-text types to text too, which the conversion service
	 * cannot (SpEL would then call {@code String.valueOf}), so that {@link #convertValue}
	 * sees them and refuses.
	 */
	@Override
	public boolean canConvert(@Nullable TypeDescriptor sourceType, TypeDescriptor targetType) {
		return this.delegate.canConvert(sourceType, targetType) || (sourceType != null
				&& targetType.getType() == String.class && hasIdentityText(sourceType.getType()));
	}

	@Override
	public @Nullable Object convertValue(@Nullable Object value, @Nullable TypeDescriptor sourceType,
			TypeDescriptor targetType) {
		if (value != null && targetType.getType() == String.class) {
			String problem = KeyValues.problem(value);
			if (problem != null) {
				throw new InvalidLockKeyException(this.operation.method(), this.operation.keyExpression(),
						"a value turned into text", problem, null);
			}
			if (!this.delegate.canConvert(sourceType, targetType)) {
				return value.toString();
			}
		}
		return this.delegate.convertValue(value, sourceType, targetType);
	}

	private static boolean hasIdentityText(Class<?> type) {
		return type.isArray() || (!type.isInterface() && !type.isPrimitive() && KeyValues.hasIdentityText(type));
	}

}
