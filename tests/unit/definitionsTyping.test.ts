/**
 * Definitions are typed by their calls: these definitions compile only while the wrong lines are
 * refused (`npx tsc --noEmit -p .` fails on an unused @ts-expect-error), and the right ones keep the
 * data they were given.
 */
import { describe, expect, it } from 'vitest';
import { defineCountCards, defineFormScreen, defineListScreen, type FilterDef } from '../../src/definitions/definitions';
import { bankCreate, bankFormSchema, type BankValues } from '../../src/api/banks';
import { billCount, ceftList, type CeftRow } from '../../src/api/transactions';
import type { RequestOf } from '../../src/api/contract';

describe('definitions typed by their calls', () => {
  it('a filter key is a key of the call request', () => {
    const ok: FilterDef<RequestOf<typeof ceftList>> = { kind: 'text', key: 'data', label: 'Search', maxLength: 30 };
    // @ts-expect-error: the send-money list takes no 'bank' field
    const wrong: FilterDef<RequestOf<typeof ceftList>> = { kind: 'text', key: 'bank', label: 'Bank', maxLength: 30 };
    expect([ok.kind, wrong.kind]).toEqual(['text', 'text']);
  });

  it("a count card's key is a key of the count call's data", () => {
    const cards = defineCountCards(billCount, [{ label: 'Success', key: 'completeTranCount', tone: 'green' }]);
    // @ts-expect-error: the counts have no 'heldCount'
    const wrong = defineCountCards(billCount, [{ label: 'Held', key: 'heldCount', tone: 'yellow' }]);
    expect([cards.cards[0].key, wrong.cards[0].key]).toEqual(['completeTranCount', 'heldCount']);
  });

  it("a list's filters are checked against its call, and a form's submit body against its call", () => {
    const list = defineListScreen<CeftRow>()({
      kind: 'list',
      id: 'typing.list',
      route: '/typing/list',
      title: 'Typing',
      access: { anyOf: ['send-money-report-view'] },
      source: { call: ceftList, request: () => ({ from_date: '2026-11-20T00:00:00', to_date: '2026-11-20T23:59:59' }), rows: (d) => d.filteredList },
      // @ts-expect-error: 'biller' is not a field of the send-money request
      filters: [{ kind: 'text', key: 'biller', label: 'Biller', maxLength: 30 }],
      columns: [{ key: 'id', header: 'ID' }],
    });
    const defaults: BankValues = { bank_code: '', bank_name: '', logo: '', disabled: 0 };
    const form = defineFormScreen<BankValues>()({
      kind: 'form',
      mode: 'create',
      id: 'typing.form',
      route: '/typing/form',
      title: 'Typing',
      access: { anyOf: ['bank-create'] },
      schema: bankFormSchema,
      defaults,
      fields: [{ kind: 'text', key: 'bank_code', label: 'Bank Code' }],
      // @ts-expect-error: create takes the bank's fields, not a 'code'
      submit: { call: bankCreate, request: (v) => ({ code: v.bank_code, bank_name: v.bank_name, logo: v.logo, disabled: v.disabled }) },
      messages: { success: 'ok', failure: 'failed' },
      back: '/typing',
    });
    expect([list.filters?.length, form.submit.request(defaults, {})]).toEqual([1, { code: '', bank_name: '', logo: '', disabled: 0 }]);
  });
});
