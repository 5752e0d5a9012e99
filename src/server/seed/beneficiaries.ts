/**
 * Demo beneficiaries: every (app user, bank, account) a remittance was sent to, registered the first
 * time money went there. Derived from the seeded remittances, so the audit dashboard's beneficiary
 * counts and "active beneficiaries" (received money in the last 30 days) agree with the transactions.
 */
import type { Db } from '../db/db';

const RECEIVER_NAMES = ['Nimal', 'Kamala', 'Sunil', 'Chandani', 'Ruwan', 'Dilani', 'Mahesh', 'Anoma', 'Priyantha', 'Shiromi', 'Lasantha', 'Thilini'];
const FAMILY_NAMES = ['Perera', 'Fernando', 'Silva', 'Jayasinghe', 'Bandara', 'Wickramasinghe', 'Herath', 'Dissanayake', 'Rajapaksha', 'Gunawardena'];

export async function seedBeneficiaries(db: Db): Promise<void> {
  const given = `(ARRAY['${RECEIVER_NAMES.join("','")}'])`;
  const family = `(ARRAY['${FAMILY_NAMES.join("','")}'])`;
  await db.query(
    `INSERT INTO beneficiaries (app_user_id, name, bank_code, account_number, created_at)
     SELECT app_user_id,
            ${given}[1 + (abs(hashtext(account_number)) % ${RECEIVER_NAMES.length})] || ' ' || ${family}[1 + (abs(hashtext(account_number || 'f')) % ${FAMILY_NAMES.length})],
            bank_code, account_number, min(initiated_time)
       FROM ceft_transactions
      WHERE app_user_id IS NOT NULL AND account_number <> ''
      GROUP BY app_user_id, bank_code, account_number`,
  );
}
