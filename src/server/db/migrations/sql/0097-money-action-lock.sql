
-- src/server/moneyApprovals.ts: a void, refund or manual fund transfer above
-- MONEY_ACTION_APPROVAL_ABOVE_USD is a change request on the transaction (a named operation of the
-- change-request engine), which locks the row while it is pending and is approved against its version.
-- Constant defaults: no table rewrite.
ALTER TABLE ceft_transactions ADD COLUMN locked integer NOT NULL DEFAULT 0, ADD COLUMN version integer NOT NULL DEFAULT 1;
