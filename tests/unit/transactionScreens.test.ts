/**
 * The transaction screen definitions as data: requests from the filters, export columns, row actions
 * by permission and guard, footers, menus, and the exports' flattening of dependants.
 */
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import { menuSections } from '../../screens/menu';
import { ceftAuditScreen, ceftScreen, eChannellingAuditScreen, insuranceScreen, transactionScreens } from '../../screens/transactions';
import { countryOptions, emptyStatusRequest, rangeRequest, statusRequest } from '../../screens/transactionFamily';
import { menuFor } from '../../src/definitions/access';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { visibleActions } from '../../src/console/views/RowActions';
import * as guards from '../../src/domain/transactionGuards';
import { exportRowsOf } from '../../src/console/listController';
import { defaultFilterValues } from '../../src/console/views/FilterBar';
import { checkDefinitions } from '../../src/definitions/checks';
import { LIST_DEFAULTS } from '../../src/definitions/definitions';
import { paymentStatusTone } from '../../src/console/views/cells';
import type { CeftRow } from '../../src/api/transactions';

const auditor = ['auditor-dashboard-view', 'auditor-report-view', 'auditor-app-user-view'];

describe('requests from the filters', () => {
  it('sends From with seconds 1 and To with seconds 0, the country, the text and the fetch count', () => {
    const f = { from_date: '2026-11-20T00:00:00', to_date: '2026-11-20T23:59:59', country_code: 'AE', data: 'N12', fetchCount: 25, status: 'PENDING' };
    expect(statusRequest(f)).toEqual({ from_date: '2026-11-20T00:00:01', to_date: '2026-11-20T23:59:00', country_code: 'AE', data: 'N12', fetchCount: 25, status: 'PENDING' });
    expect(emptyStatusRequest(f).status).toBe('');
    expect(statusRequest({ ...f, status: 'whatever' }).status).toBe('');
    expect(rangeRequest(f)).toEqual({ from_date: '2026-11-20T00:00:01', to_date: '2026-11-20T23:59:00', country_code: 'AE', data: 'N12' });
  });

  it('starts from today 00:00:00 to 23:59:59, fetch count 10, and clears to 00:00:01', () => {
    const now = new Date(2026, 10, 22, 14, 5, 0);
    expect(defaultFilterValues(ceftScreen.filters!, now)).toEqual({
      from_date: '2026-11-22T00:00:00',
      to_date: '2026-11-22T23:59:59',
      country_code: '',
      fetchCount: 10,
      data: '',
      status: '',
    });
    expect(defaultFilterValues(ceftScreen.filters!, now, true).from_date).toBe('2026-11-22T00:00:01');
  });

  it('offers the countries of the reply after All Countries', () => {
    expect(countryOptions({ countries: [{ code: 'AE', name: 'United Arab Emirates' }] })).toEqual([{ value: 'AE', label: 'United Arab Emirates' }]);
    const country = ceftScreen.filters!.find((f) => f.kind === 'dataSelect');
    expect(country).toMatchObject({ label: 'Country', allLabel: 'All Countries' });
  });

  it('labels the search box per screen and variant', () => {
    const label = (s: (typeof transactionScreens)[number]) => s.filters!.flatMap((f) => (f.kind === 'text' ? [f.label] : []))[0];
    expect(Object.fromEntries(transactionScreens.map((s) => [s.route, label(s)]))).toEqual({
      '/transaction/ceft': 'UID/NIC/Trace/Account Number',
      '/transaction/bill': 'UID/NIC/Trace',
      '/transaction/thyaga': 'NIC/Passport/Trace',
      '/transaction/eChannelling': 'NIC/Passport/Trace',
      '/transaction/insurance': 'User UID',
      '/AllCeftTransactions': 'NIC/Passport/Trace/Account Number',
      '/AuditerBillPayments': 'NIC/Passport/Trace/Account Number',
      '/AuditerThyaga': 'NIC/Passport/Trace',
      '/AuditerEChanneling': 'NIC/Passport/Trace',
    });
    expect(eChannellingAuditScreen.filters!.some((f) => f.kind === 'fetchCount')).toBe(false);
    expect(ceftScreen.filters!.some((f) => f.kind === 'select' && f.key === 'status')).toBe(true);
    expect(ceftAuditScreen.filters!.some((f) => f.kind === 'select')).toBe(false);
  });
});

describe('columns and exports', () => {
  it('exports every column, the panels one column per field', () => {
    const headers = exportFieldsOf(ceftScreen).map((f) => f.header);
    expect(headers.slice(0, 6)).toEqual(['ID', 'Trace', 'UID/NIC', 'Country', 'Tran Type', 'Bank']);
    expect(headers).toEqual(expect.arrayContaining(['Exchange Rate (LKR)', 'Beneficiary Received Amount (LKR)', 'Void Tran ID', 'Refund Message', 'Status']));
    expect(headers).not.toContain('IPG Deduction Details');
    expect(exportFieldsOf(ceftAuditScreen).map((f) => f.header)[5]).toBe('Bank Code');
  });

  it('keeps the insurance headers of the specification, in order', () => {
    expect(insuranceScreen.columns.map((c) => c.header)).toEqual([
      'ID',
      'UID No',
      'Trace Number',
      'UID/NIC',
      'Email',
      'Dependents Detail',
      'Country',
      'Cover Package',
      'Plan No',
      'Currency Code',
      'Plan Amount (USD)',
      'Total Amount (USD)',
      'Tran Initiated Time',
      'Card Payment Time',
      'Card Payment Status',
      'Card Payment Description',
      'IPG Transaction ID',
      'IPG Details',
      'Insurance Payment Time',
      'Status',
      'Description',
      'Transaction ID',
      'IPG Void Payment Time',
      'IPG Void Status',
      'Created At',
      'Updated At',
    ]);
  });

  it('flattens dependants into one labelled text line each for the exports', () => {
    const rows = [{ id: 1, dependants: [{ id: 7, title: 'Mrs', name: 'Kumari Perera', nic_number: '199012345678', relation_type: 'Spouse', mobile_number: '0771234567', email: '' }] }];
    expect(exportRowsOf(insuranceScreen.columns, rows)[0].dependants).toBe('Title: Mrs, NIC Number: 199012345678, Relation Type: Spouse, Mobile Number: 0771234567, Email: , Name: Kumari Perera');
    expect(exportRowsOf(ceftScreen.columns, rows)).toBe(rows);
  });

  it('sorts by id ascending, 50 a page, and shows zero charges as -', () => {
    for (const s of transactionScreens) {
      // the transaction screens state neither: the runtime's defaults apply
      expect(s.pageSize ?? LIST_DEFAULTS.pageSize, s.id).toBe(50);
      expect(s.defaultSort ?? LIST_DEFAULTS.defaultSort, s.id).toEqual({ key: 'id', desc: false });
      expect(s.columns.every((c) => c.sortable !== false)).toBe(true);
    }
    expect(
      transactionScreens
        .find((s) => s.id === 'transactions.eChannelling')!
        .columns.filter((c) => c.zeroAsDash)
        .map((c) => c.key),
    ).toEqual(['doctor_charge_lkr', 'hospital_charge_lkr', 'itg_amount', 'ec_charge_lkr', 'total_lkr']);
  });

  it('colours payment states', () => {
    expect(['SUCCESS', 'PENDING', 'HOLD', 'REFUNDED', 'FAILED', 'whatever'].map(paymentStatusTone)).toEqual(['green', 'yellow', 'yellow', 'blue', 'red', 'red']);
  });
});

describe('footers', () => {
  const reply = { data: { totalAmount: 7, filteredTotalAmount: 3 }, totalAmount: 1200.5, filteredTotalAmount: 300.25 };
  it('read the totals at the top level in USD, inside data in LKR on the refunded tab and in USD for insurance', () => {
    expect(ceftScreen.footer!.items.map((i) => [i.label, i.currency, i.value(reply)])).toEqual([
      ['Filtered Amount', 'USD', 300.25],
      ['Total Amount', 'USD', 1200.5],
    ]);
    const refunded = ceftAuditScreen.tabs!.find((t) => t.id === 'refunded')!;
    expect(refunded.footer!.items.map((i) => [i.currency, i.value(reply)])).toEqual([
      ['LKR', 3],
      ['LKR', 7],
    ]);
    expect(refunded.rowActions).toBe(false);
    expect(insuranceScreen.footer!.items.map((i) => [i.currency, i.value(reply)])).toEqual([
      ['USD', 3],
      ['USD', 7],
    ]);
    for (const s of transactionScreens) expect(s.footer?.note, s.id).toBe('Displaying only the total value of successful transactions.');
  });

  it("the Refunded tab's note says its totals are of refunded transactions in LKR (they are not of successful ones)", () => {
    const refunded = ceftAuditScreen.tabs!.find((t) => t.id === 'refunded')!;
    expect(refunded.footer!.note).toBe('Displaying only the total value of refunded transactions, in LKR.');
  });
});

describe('row actions', () => {
  const now = new Date();
  const row = (change: Partial<CeftRow>): CeftRow =>
    ({
      id: 42,
      trace: '261122100000042',
      card_payment_status: 'SUCCESS',
      card_payment_time: new Date(now.getTime() - 3 * 86_400_000).toISOString(),
      ceft_payment_status: 'FAILED',
      ceft_try_count: 2,
      refund_requested: false,
      ipg_void_status: null,
      ipg_refund_status: null,
      ...change,
    }) as CeftRow;
  const ids = (r: CeftRow, permissions: string[]) => visibleActions(ceftScreen.rowActions!, r, { username: 'x', permissions }).map((a) => a.id);
  const all = ['transaction-hold', 'transaction-retry', 'transaction-refund'];

  it('shows each action to the holders of its permission when its guard holds', () => {
    expect(ids(row({}), all)).toEqual(['hold', 'manualFundTransfer']);
    expect(ids(row({ refund_requested: true }), all)).toEqual(['hold', 'manualFundTransfer', 'refund']);
    expect(ids(row({ refund_requested: true, card_payment_time: now.toISOString() }), all)).toEqual(['hold', 'manualFundTransfer', 'void']);
    expect(ids(row({ ceft_try_count: 100 }), all)).toEqual(['manualFundTransfer']);
    expect(ids(row({ ceft_payment_status: 'SUCCESS' }), all)).toEqual([]);
    expect(ids(row({ refund_requested: true }), ['transaction-refund'])).toEqual(['refund']);
    expect(ids(row({ refund_requested: true }), auditor)).toEqual([]);
  });

  it('money moves at most once: a row whose fund transfer succeeded shows no Void or Refund, even with a refund requested; the buttons ask the guards the server asks', () => {
    expect(ids(row({ ceft_payment_status: 'SUCCESS', refund_requested: true }), all)).toEqual([]);
    expect(ids(row({ ceft_payment_status: 'SUCCESS', refund_requested: true, card_payment_time: now.toISOString() }), all)).toEqual([]);
    expect(ids(row({ ceft_payment_status: 'SUCCESS', refund_requested: true }), ['super-permission'])).toEqual([]);
    // the very functions of src/domain/transactionGuards.ts that src/server/areas/transactions/actions.ts calls (through their ...Refusal)
    const when = Object.fromEntries(ceftScreen.rowActions!.map((a) => [a.id, a.when]));
    expect(when).toEqual({ hold: guards.canHoldFundTransfer, manualFundTransfer: guards.canManualFundTransfer, void: guards.canVoidCardPayment, refund: guards.canRefundCardPayment });
    for (const [id, fn] of Object.entries(when))
      expect(fn, id).toBe(guards[`can${{ hold: 'HoldFundTransfer', manualFundTransfer: 'ManualFundTransfer', void: 'VoidCardPayment', refund: 'RefundCardPayment' }[id]}` as 'canHoldFundTransfer']);
  });

  it('speaks the texts of the specification', () => {
    const r = row({});
    const text = Object.fromEntries(
      ceftScreen.rowActions!.map((a) => {
        if (a.run.kind !== 'call') throw new Error('call expected');
        return [a.id, [a.run.confirm!.title, a.run.confirm!.message(r), a.run.success(r), a.run.body(r, { comment: '' })]];
      }),
    );
    expect(text).toEqual({
      hold: [
        'Warning!',
        'Taking this action will hold the fund-transfer of the customer (Tran ID - 42). Do you want to continue?',
        'Transaction hold successful: Id - 42',
        { id: 42, description: '' },
      ],
      manualFundTransfer: [
        'Warning!',
        'Taking this action will start a manual fund transferring for this transaction (Tran ID - 42). If you not sure funds are available, please do not take this action. Are you sure to take this action?',
        'Fund transfer successful: Id - 42',
        { trace: '261122100000042' },
      ],
      void: ['Warning!', 'Taking this action will refund the card payment of the customer (Tran ID - 42). Do you want to continue?', 'Transaction voided successfully: Id - 42', { transactionID: 42 }],
      refund: [
        'Warning!',
        'Taking this action will refund the card payment of the customer (Tran ID - 42). Do you want to continue?',
        'Transaction refunded successfully: Id - 42',
        { transactionID: 42 },
      ],
    });
  });
});

describe('routes and menus', () => {
  it('passes the start-up checks', () => expect(checkDefinitions(screens, { skipModals: true })).toEqual([]));

  it('puts the operational screens under Reports and the auditor screens under Audit Reports', () => {
    const section = (perms: string[], name: string) =>
      menuFor(screens, menuSections, perms)
        .find((g) => g.section === name)
        ?.items.filter((i) => transactionScreens.some((s) => s.route === i.to));
    expect(section(['send-money-report-view', 'bill-payment-report-view', 'thyaga-report-view', 'echannelling-report-view', 'insurance-report-view'], 'Reports')!.map((i) => i.to)).toEqual([
      '/transaction/ceft',
      '/transaction/bill',
      '/transaction/thyaga',
      '/transaction/eChannelling',
      '/transaction/insurance',
    ]);
    expect(section(auditor, 'Audit Reports')!.map((i) => [i.label, i.to])).toEqual([
      ['Send Money', '/AllCeftTransactions'],
      ['Bill Payments', '/AuditerBillPayments'],
      ['Thyaga', '/AuditerThyaga'],
      ['E-Channelling', '/AuditerEChanneling'],
    ]);
    // the auditor screens need auditor-report-view and no super permission
    expect(section(['super-permission'], 'Audit Reports')).toBeUndefined();
    expect(section(['auditor-dashboard-view'], 'Audit Reports')).toBeUndefined();
    expect(section(auditor, 'Reports')).toBeUndefined();
  });
});

describe('sorting panel and list columns', () => {
  it('sorts a panel column by its own field and a list column by its number of items', async () => {
    const { sortedIndexes, sortingOf } = await import('../../src/console/views/DataTable');
    const panel = ceftScreen.columns.find((c) => c.header === 'IPG Deduction Details')!;
    const rows = [{ exchange_rate_final: 81.5 }, { exchange_rate_final: 9.2 }, { exchange_rate_final: 300.01 }];
    const p = sortingOf(panel);
    expect(p.kind).toBe('rate');
    expect([...sortedIndexes(rows, panel.key, p.kind, false, p.sortValue)]).toEqual([1, 0, 2]);
    const list = insuranceScreen.columns.find((c) => c.kind === 'list')!;
    const l = sortingOf(list);
    const people = [{ dependants: [1, 2, 3] }, { dependants: [] }, { dependants: [1] }];
    expect([...sortedIndexes(people, list.key, l.kind, true, l.sortValue)]).toEqual([0, 2, 1]);
  });
});

describe('the PDF of a wide table', () => {
  async function pages(bytes: Uint8Array) {
    const { createRequire } = await import('node:module');
    const { dirname, join } = await import('node:path');
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, standardFontDataUrl: join(root, 'standard_fonts') + '/' }).promise;
    const out: { width: number; text: string }[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      out.push({ width: Math.round(page.getViewport({ scale: 1 }).width), text: content.items.map((i) => ('str' in i ? i.str : '')).join(' ') });
    }
    return out;
  }

  it('keeps every word whole: a larger landscape page, or the columns continued on further pages', async () => {
    const { buildPdf, pdfLayout } = await import('../../src/formats/pdf');
    const { jsPDF } = await import('jspdf');
    const { toExportTable } = await import('../../src/formats/cells');
    const row = {
      id: 10776,
      trace: '261119100010776',
      uid: '846674289V',
      country: 'KW',
      tran_type: 'CEFT',
      bank_name: 'Hongkong and Shanghai Banking Corporation',
      account_number: '569211852871',
      currency_code: 'KWD',
      amount: 123.42,
      initiated_time: '2026-11-19T00:02:55.000Z',
      card_payment_status: 'SUCCESS',
      card_payment_description: 'Approved',
      ceft_payment_description: 'Response received too late from LankaPay',
      status: 'SUCCESS',
    };
    const fields = exportFieldsOf(ceftScreen);
    const { headers, body } = toExportTable(fields, [row], 'pdf', 'Asia/Colombo');
    const layout = pdfLayout(new jsPDF({ orientation: 'landscape', unit: 'pt', format: 'a4' }), headers, body);
    expect(layout.widths).toHaveLength(fields.length);
    expect(layout.split || layout.format !== 'a4').toBe(true);
    const ctx = { title: 'Send Money Transactions', fileBase: 'ceftTransactions', username: 'maker', now: new Date(2026, 10, 22, 9, 0, 0), timeZone: 'Asia/Colombo' };
    const wide = await pages(
      await buildPdf(
        fields,
        Array.from({ length: 30 }, (_, i) => ({ ...row, id: row.id + i })),
        ctx,
      ),
    );
    expect(wide[0].width).toBeGreaterThan(842);
    const text = wide.map((p) => p.text).join(' ');
    for (const word of ['Hongkong', 'Corporation', 'LankaPay', 'Beneficiary', '261119100010776']) expect(text).toContain(word);
    for (const f of fields) for (const word of f.header.split(' ')) expect(text, f.header).toContain(word);
    // a narrow table stays on A4
    const narrow = await pages(await buildPdf(fields.slice(0, 6), [row], ctx));
    expect(narrow.map((p) => p.width)).toEqual([842]);
  });
});
