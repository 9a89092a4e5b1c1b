-- The lock table of distlock's JDBC store (profile "jdbc"), as lock-jdbc's schema-h2.sql creates it:
-- expires_at is milliseconds since the epoch on the database's clock, fencing tokens come from the sequence.
CREATE TABLE distlock_lock (
	lock_key VARCHAR(1024) NOT NULL PRIMARY KEY,
	owner_token VARCHAR(255),
	released BOOLEAN NOT NULL,
	expires_at BIGINT NOT NULL,
	fencing_token BIGINT NOT NULL,
	waiters_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX distlock_lock_expires_idx ON distlock_lock (expires_at);
CREATE SEQUENCE distlock_lock_fence_seq;
