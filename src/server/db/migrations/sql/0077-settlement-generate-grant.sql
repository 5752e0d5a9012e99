
-- Generating a settlement batch needs its own permission from now on. Back-office (BACKEND) roles
-- that hold settlement-report-view could generate until now and keep doing so; IPG bank roles, which
-- see their own provider's rows only, do not get it: a batch settles every provider.
UPDATE roles SET permissions = permissions || '["settlement-report-generate"]'::jsonb, updated_at = now()
 WHERE user_type <> 'IPGBANK' AND permissions ? 'settlement-report-view' AND NOT permissions ? 'settlement-report-generate';
