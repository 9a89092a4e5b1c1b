-- distlock schema version 3 on H2, from version 2; idempotent.
-- Drops the index on expires_at, which every acquire and release writes, so that a write no longer updates it too.
-- The cleanup scans the table instead.
DROP INDEX IF EXISTS distlock_lock_expires_idx;
