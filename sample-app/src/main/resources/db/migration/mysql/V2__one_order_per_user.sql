-- Defence in depth: the lock keeps a user's orders apart, this constraint catches any that slip through.
ALTER TABLE voucher_order ADD CONSTRAINT voucher_order_one_per_user UNIQUE (voucher_id, user_id);
