/**
 * A console user's "branch" depends on the user type: a branch (BACKEND), an IPG provider by bank
 * code (IPGBANK), an exchange house (EXCHANGEHOUSE), a bank by bank code (DFBANK), a merchant by id
 * (DFMERCHANT) or one of the fixed auditor options.
 */
export const fixedBranchOptions = ['CBSL', 'SLCUSTOMS', 'DFMINISTRY', 'AUDITOR'] as const;

/**
 * SQL for the display name of the branch of (userType, branchCode), or NULL when there is no such
 * branch for that type. The arguments are SQL expressions (columns or parameters).
 */
export function branchNameSql(userType: string, branchCode: string): string {
  return `(CASE ${userType}
    WHEN 'BACKEND' THEN (SELECT b.name FROM branches b WHERE b.code = ${branchCode})
    WHEN 'IPGBANK' THEN (SELECT p.provider_bank_name FROM ipg_providers p WHERE p.provider_bank_code = ${branchCode})
    WHEN 'EXCHANGEHOUSE' THEN (SELECT e.name FROM exchange_houses e WHERE e.code = ${branchCode})
    WHEN 'DFBANK' THEN (SELECT k.bank_name FROM banks k WHERE k.bank_code = ${branchCode})
    WHEN 'DFMERCHANT' THEN (SELECT m.name FROM merchants m WHERE m.id::text = ${branchCode})
    ELSE (CASE WHEN ${branchCode} IN (${fixedBranchOptions.map((o) => `'${o}'`).join(', ')}) THEN ${branchCode} END)
  END)`;
}
