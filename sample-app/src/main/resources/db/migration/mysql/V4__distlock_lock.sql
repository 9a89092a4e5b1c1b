-- The lock table of distlock's JDBC store (profile "jdbc"), as version 1 of lock-jdbc's schema-mysql.sql created it (V7 brings it to version 2):
-- keys and owner tokens are binary strings, compared byte for byte (no padding, no case folding),
-- expires_at is milliseconds since the epoch on the database's clock.
CREATE TABLE distlock_lock (
	lock_key VARBINARY(1024) NOT NULL PRIMARY KEY,
	owner_token VARBINARY(255),
	released BOOLEAN NOT NULL,
	expires_at BIGINT NOT NULL,
	fencing_token BIGINT NOT NULL,
	INDEX distlock_lock_expires_idx (expires_at)
) ENGINE = InnoDB;
