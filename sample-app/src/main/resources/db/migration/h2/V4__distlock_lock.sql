-- The lock table of distlock's JDBC store (profile "jdbc"), as version 1 of lock-jdbc's schema-h2.sql created it (V7 brings it to version 2):
-- expires_at is milliseconds since the epoch on the database's clock, fencing tokens come from the sequence.
CREATE TABLE distlock_lock (
	lock_key VARCHAR(1024) NOT NULL PRIMARY KEY,
	owner_token VARCHAR(255),
	released BOOLEAN NOT NULL,
	expires_at BIGINT NOT NULL,
	fencing_token BIGINT NOT NULL
);
CREATE INDEX distlock_lock_expires_idx ON distlock_lock (expires_at);
CREATE SEQUENCE distlock_lock_fence_seq;
