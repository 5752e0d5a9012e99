
CREATE INDEX bill_transactions_success_biller ON bill_transactions (initiated_time) INCLUDE (biller_code, amount_usd) WHERE status = 'SUCCESS';
