-- distlock schema version 3 on PostgreSQL, from version 2; idempotent.
-- Drops the index on expires_at, which every acquire and release writes: with the index no update of a row could be
-- a HOT update, and each one added entries to both of the table's indexes. The cleanup scans the table instead.
DROP INDEX IF EXISTS distlock_lock_expires_idx;
