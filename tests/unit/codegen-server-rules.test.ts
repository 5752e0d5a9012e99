/**
 * The screen specs' "Server rules": each call a screen makes, with the guards and the change-request
 * behaviour its handler declares; and the declarations agree with the contract (a call answering a
 * changeRequestId declares the change request; a call deciding requests declares what it decides).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls } from '../../src/api/index';
import { callRules } from '../../src/server/callRules';

const spec = (id: string) => readFileSync(`generated/screens/${id}.md`, 'utf8');
/** The text from a `### heading` to the next heading (empty when the heading is missing). */
function section(md: string, heading: string): string {
  const start = md.indexOf(heading);
  if (start < 0) return '';
  const end = md.indexOf('\n#', start + 1);
  return md.slice(start, end < 0 ? undefined : end);
}

describe('server rules in the screen specs', () => {
  it('the Banks spec says bank/edit creates a change request that bank/approve decides, never by its maker', () => {
    const edit = section(spec('banks.edit'), '### `POST /api/bank/edit`');
    expect(edit).toContain('- Access: any of bank-edit (or super-permission); anyone else gets 403');
    expect(edit).toContain('creates a change request on Bank instead of acting');
    expect(edit).toContain('refused with 409 while the record is locked by a pending request');
    expect(edit).toContain('decided by `POST /api/bank/approve` (`bankApprove`), never by its maker');
    const approve = section(spec('banks'), '### `POST /api/bank/approve`');
    expect(approve).toContain('- Decides: approves or rejects pending change requests of Bank');
  });

  it('the send-money spec names the money guards with their doc comments, and four eyes on void', () => {
    const md = spec('transactions.ceft');
    const hold = section(md, '### `POST /api/Transaction/ceft/hold`');
    expect(hold).toContain('  - `holdRefusal` (`src/domain/transactionGuards.ts`) — Why a hold is refused');
    expect(hold).toContain('  - `isLocked` (`src/domain/guards.ts`)');
    expect(hold).not.toContain('Four eyes');
    const voided = section(md, '### `POST /api/Transaction/ceft/void`');
    expect(voided).toContain('`voidRefusal`');
    expect(voided).toContain('- Four eyes: above `MONEY_ACTION_APPROVAL_ABOVE_USD`');
    expect(voided).toContain('`POST /api/transaction/money-approval/approve`');
  });

  it('the Create Role spec names the privilege guard: a role cannot grant what its maker does not hold', () => {
    const md = section(spec('roles.create'), '### `POST /api/role/create`');
    expect(md).toContain('  - `grantRefusal` (`src/domain/privilege.ts`)');
    expect(md).toContain('decided by `POST /api/role/approve` (`roleApprove`)');
  });

  it('every call whose reply carries a changeRequestId declares a change request or four eyes', () => {
    const answering = allCalls.filter((c) => 'changeRequestId' in ((z.toJSONSchema(c.data, { io: 'output', unrepresentable: 'any' }).properties as object | undefined) ?? {})).map((c) => c.path);
    expect(answering.length).toBeGreaterThan(10);
    expect(answering).toContain('bank/create');
    const undeclared = answering.filter((p) => !callRules[p]?.changeRequest && !callRules[p]?.fourEyes);
    expect(undeclared).toEqual([]);
  });

  it('every approve call declares what it decides', () => {
    const approves = allCalls.filter((c) => /\/approve$/i.test(c.path) || /^changeRequest\/decide/.test(c.path)).map((c) => c.path);
    expect(approves.filter((p) => !callRules[p]?.decides?.length)).toEqual([]);
  });
});
