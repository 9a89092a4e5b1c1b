-- One row per user who ordered, fenced by the user's lock: each order sets fencing_token to its lock's token through a
-- guarded UPDATE (FencedUpdates), refused when a newer holder of the user's lock already wrote the row.
CREATE TABLE order_user (
	user_id BIGINT PRIMARY KEY,
	last_order_at TIMESTAMP(6) NOT NULL,
	fencing_token BIGINT
);
