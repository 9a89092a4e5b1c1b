-- The lock table of distlock's schema version 3 (lock-jdbc's migration/3): no index on expires_at, which every acquire
-- and release writes, so that a write no longer updates that index too. A new migration, since Flyway never runs an
-- applied one again.
ALTER TABLE distlock_lock DROP INDEX distlock_lock_expires_idx;
