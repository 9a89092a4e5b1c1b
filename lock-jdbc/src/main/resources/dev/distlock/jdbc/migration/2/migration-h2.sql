-- distlock schema version 2 on H2, from version 1; idempotent.
-- waiters_until: how long, on the database's clock in milliseconds since the epoch, a refused waiter is recorded as
-- waiting for the key.
ALTER TABLE distlock_lock ADD COLUMN IF NOT EXISTS waiters_until BIGINT NOT NULL DEFAULT 0;
