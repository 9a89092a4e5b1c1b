CREATE TABLE voucher (
	id BIGINT AUTO_INCREMENT PRIMARY KEY,
	title VARCHAR(200) NOT NULL,
	stock INT NOT NULL,
	begin_time DATETIME(6) NOT NULL,
	end_time DATETIME(6) NOT NULL,
	CONSTRAINT voucher_stock_not_negative CHECK (stock >= 0)
);

CREATE TABLE voucher_order (
	id BIGINT AUTO_INCREMENT PRIMARY KEY,
	user_id BIGINT NOT NULL,
	voucher_id BIGINT NOT NULL,
	created_at DATETIME(6) NOT NULL,
	fencing_token BIGINT NOT NULL,
	CONSTRAINT voucher_order_voucher FOREIGN KEY (voucher_id) REFERENCES voucher (id)
);

CREATE INDEX voucher_order_by_voucher_user ON voucher_order (voucher_id, user_id);
