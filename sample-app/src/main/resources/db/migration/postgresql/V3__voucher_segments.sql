-- Segmented vouchers: the stock of one hot voucher split into rows that orders decrement in parallel,
-- each under the lock of its segment. A voucher of 1 segment keeps its stock in voucher.stock.
ALTER TABLE voucher ADD segments INT NOT NULL DEFAULT 1;

CREATE TABLE voucher_segment (
	voucher_id BIGINT NOT NULL,
	segment INT NOT NULL,
	stock INT NOT NULL,
	CONSTRAINT voucher_segment_pk PRIMARY KEY (voucher_id, segment),
	CONSTRAINT voucher_segment_voucher FOREIGN KEY (voucher_id) REFERENCES voucher (id),
	CONSTRAINT voucher_segment_stock_not_negative CHECK (stock >= 0)
);
