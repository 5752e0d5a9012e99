
DROP INDEX ceft_transactions_initiated;
CREATE INDEX ceft_transactions_initiated ON ceft_transactions (initiated_time) INCLUDE (app_user_id);
DROP INDEX bill_transactions_initiated;
CREATE INDEX bill_transactions_initiated ON bill_transactions (initiated_time) INCLUDE (app_user_id);
DROP INDEX echannelling_transactions_initiated;
CREATE INDEX echannelling_transactions_initiated ON echannelling_transactions (initiated_time) INCLUDE (app_user_id);
DROP INDEX thyaga_transactions_initiated;
CREATE INDEX thyaga_transactions_initiated ON thyaga_transactions (initiated_time) INCLUDE (app_user_id);
DROP INDEX insurance_transactions_initiated;
CREATE INDEX insurance_transactions_initiated ON insurance_transactions (initiated_time) INCLUDE (app_user_id);
