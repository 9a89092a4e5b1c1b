-- distlock schema version 3 on MySQL and MariaDB, from version 2; idempotent (MySQL has no DROP INDEX IF EXISTS, so
-- the ALTER runs only where the index exists).
-- Drops the index on expires_at, which every acquire and release writes, so that a write no longer updates it too.
-- The cleanup scans the table instead.
SET @distlock_migration = (SELECT IF(COUNT(*) = 0, 'DO 0', 'ALTER TABLE distlock_lock DROP INDEX distlock_lock_expires_idx') FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'distlock_lock' AND index_name = 'distlock_lock_expires_idx');
PREPARE distlock_migration FROM @distlock_migration;
EXECUTE distlock_migration;
DEALLOCATE PREPARE distlock_migration;
