-- Whether a voucher's stock is guarded by segment locks: always when it has more than 1 segment, and on request
-- for 1 segment (one segment row under one lock). Without them (the default for 1 segment) the stock is voucher.stock,
-- decremented by a conditional UPDATE.
ALTER TABLE voucher ADD stock_locks BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE voucher SET stock_locks = TRUE WHERE segments > 1;
