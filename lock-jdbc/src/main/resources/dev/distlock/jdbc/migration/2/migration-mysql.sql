-- distlock schema version 2 on MySQL and MariaDB, from version 1; idempotent (MySQL has no ADD COLUMN IF NOT EXISTS,
-- so the ALTER runs only where the column is missing).
-- waiters_until: how long, on the database's clock in milliseconds since the epoch, a refused waiter is recorded as
-- waiting for the key.
SET @distlock_migration = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE distlock_lock ADD COLUMN waiters_until BIGINT NOT NULL DEFAULT 0', 'DO 0') FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'distlock_lock' AND column_name = 'waiters_until');
PREPARE distlock_migration FROM @distlock_migration;
EXECUTE distlock_migration;
DEALLOCATE PREPARE distlock_migration;
