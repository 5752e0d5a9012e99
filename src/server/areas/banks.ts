/** Banks: list, edit form data, maker-checker create/edit with the logo stored in the database. */
import { bankApprove, bankCreate, bankEdit, bankGetForEdit, bankList, bankMessages, type BankRow } from '../../api/banks';
import { logoRule } from '../../api/imageUpload';
import { listStatusText } from '../../domain/recordStatus';
import { decide, pendingChangeRequests, submit } from '../changeRequests';
import { bankEntity, type BankPayload } from '../entities/bank';
import { imagePathFor } from '../entities/images';
import type { Db } from '../db/db';
import { handle, type Ctx } from '../http/handle';
import { notFound } from '../http/httpError';

interface BankTableRow {
  id: number;
  bank_code: string;
  bank_name: string;
  logo: string | null;
  disabled: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
}

const bankColumns = 'id, bank_code, bank_name, logo, disabled, locked, created_at, updated_at';

function toBankRow(r: BankTableRow): BankRow {
  return {
    id: r.id,
    bank_code: r.bank_code,
    bank_name: r.bank_name,
    logo: r.logo,
    disabled: r.disabled,
    status: listStatusText(r.disabled),
    locked: r.locked,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function findBank(db: Db, id: number): Promise<BankTableRow> {
  const row = await db.one<BankTableRow>(`SELECT ${bankColumns} FROM banks WHERE id = $1`, [id]);
  if (!row) throw notFound('Bank');
  return row;
}

/** Stores a new logo (or keeps the record's own) and sends the request, in one transaction. */
async function requestBank(ctx: Ctx, body: Omit<BankPayload, 'logo'> & { logo: string }, recordId?: number) {
  return ctx.tx(async (t) => {
    const current = recordId === undefined ? undefined : await findBank(t.db, recordId);
    const logo = await imagePathFor(
      t.db,
      body.logo,
      'banks',
      body.bank_code,
      { field: 'logo', rule: logoRule, invalidMessage: bankMessages.logoInvalid, keep: current?.logo ? [current.logo] : [] },
      t.clock(),
    );
    const payload: BankPayload = { bank_code: body.bank_code, bank_name: body.bank_name, logo, disabled: body.disabled };
    return submit(t, bankEntity, recordId === undefined ? { action: 'CREATE', payload } : { action: 'EDIT', recordId, payload });
  });
}

export const bankHandlers = [
  handle(bankList, async (ctx) => {
    const rows = await ctx.db.query<BankTableRow>(`SELECT ${bankColumns} FROM banks ORDER BY id`);
    return { data: { banks: rows.map(toBankRow), changeRequests: await pendingChangeRequests(ctx.db, bankEntity) } };
  }),

  handle(bankGetForEdit, async (ctx, { id }) => ({ data: { bank: toBankRow(await findBank(ctx.db, id)) } })),

  handle(
    bankCreate,
    async (ctx, body) => {
      const changeRequestId = await requestBank(ctx, body);
      return { data: { message: 'Bank sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: bankEntity.type, approve: bankApprove } },
  ),

  handle(
    bankEdit,
    async (ctx, { id, ...body }) => {
      const changeRequestId = await requestBank(ctx, body, id);
      return { data: { message: 'Bank sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: bankEntity.type, approve: bankApprove } },
  ),

  handle(bankApprove, async (ctx, decision) => ({ data: await decide(ctx, bankEntity, decision) }), { decides: [bankEntity.type] }),
];
