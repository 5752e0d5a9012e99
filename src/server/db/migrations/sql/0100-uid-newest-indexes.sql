CREATE INDEX ceft_transactions_uid_newest ON ceft_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX bill_transactions_uid_newest ON bill_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX echannelling_transactions_uid_newest ON echannelling_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX thyaga_transactions_uid_newest ON thyaga_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX insurance_transactions_uid_newest ON insurance_transactions (uid, initiated_time DESC, id DESC);