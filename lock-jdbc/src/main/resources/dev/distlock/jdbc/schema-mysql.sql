-- distlock schema version 3. A release that changes this script raises the version and ships
-- dev/distlock/jdbc/migration/<version>/migration-mysql.sql, which brings a table of the previous version to it.
-- The lock table of the distlock JDBC store on MySQL and MariaDB; every statement is idempotent.
-- lock_key and owner_token are binary strings, compared byte for byte (no padding, no case folding);
-- expires_at is milliseconds since the epoch on the database's clock.
-- waiters_until (version 2) is how long, on that clock, a refused waiter is recorded as waiting for the key.
-- No index on expires_at (version 3): every acquire and release writes it, and an index on it made each write
-- update the index too (on PostgreSQL, no HOT update); the cleanup scans the table instead.
CREATE TABLE IF NOT EXISTS distlock_lock (
	lock_key VARBINARY(1024) NOT NULL PRIMARY KEY,
	owner_token VARBINARY(255),
	released BOOLEAN NOT NULL,
	expires_at BIGINT NOT NULL,
	fencing_token BIGINT NOT NULL,
	waiters_until BIGINT NOT NULL DEFAULT 0
) ENGINE = InnoDB;
