-- The lock table of distlock's schema version 2 (lock-jdbc's migration/2): a refused waiter records until when it
-- waits, so that a release wakes listeners only when someone waits. A new migration, since Flyway never runs an
-- applied one again.
ALTER TABLE distlock_lock ADD COLUMN waiters_until BIGINT NOT NULL DEFAULT 0;
