/**
 * The settlement screens' Generate Report button: shown to the holders of settlement-report-generate
 * only (docs/settlement.md), the permission the generate calls demand on the server.
 */
import { describe, expect, it } from 'vitest';
import { instantSettlementScreen, settlementScreen } from '../../screens/settlement';
import { visibleToolbarActions } from '../../src/console/views/ListToolbar';
import { generateInstantSettlement, generateSettlement } from '../../src/api/reports';
import { demoRoles } from '../../src/server/seed/demo';
import { canGenerateSettlement } from '../../src/domain/reports';

const role = (name: string) => ({ username: name, permissions: [...demoRoles.find((r) => r.name === name)!.permissions] });

describe('Generate Report', () => {
  // 23:19 UTC: the 25th in Colombo (the business day), the 24th in the browser's Los Angeles
  const now = new Date('2026-11-24T23:19:02Z');
  const reply = { statusCode: 200, data: { transactions: [], hasRatesUpdated: true, messages: [] } };
  // today's report, empty: the one state in which generating is offered at all
  const ctx = { filters: { date: '2026-11-25', fetchCount: 10 }, reply, rows: [], now, timeZone: 'Asia/Colombo' } as never;

  it("is offered for the business day's report, whatever the browser's day", () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(canGenerateSettlement({ filters: { date: '2026-11-25' }, reply, rows: [], now, timeZone: 'Asia/Colombo' })).toBe(true);
      expect(canGenerateSettlement({ filters: { date: '2026-11-24' }, reply, rows: [], now, timeZone: 'Asia/Colombo' })).toBe(false);
      // east of the business zone: Colombo's browser is on the 25th, New York's business day the 24th
      process.env.TZ = 'Asia/Colombo';
      expect(canGenerateSettlement({ filters: { date: '2026-11-24' }, reply, rows: [], now, timeZone: 'America/New_York' })).toBe(true);
      expect(canGenerateSettlement({ filters: { date: '2026-11-25' }, reply, rows: [], now, timeZone: 'America/New_York' })).toBe(false);
    } finally {
      process.env.TZ = saved;
    }
  });

  it.each([
    [settlementScreen, generateSettlement],
    [instantSettlementScreen, generateInstantSettlement],
  ] as const)('%#: shown to the maker and a super user, not to the IPG bank officer nor the checker, who view the report', (screen, call) => {
    const shown = (user: { username: string; permissions: string[] }) => visibleToolbarActions(screen.toolbarActions ?? [], ctx, user).map((a) => a.label);
    expect(shown(role('Maker'))).toEqual(['Generate Report']);
    expect(shown(role('Administrator'))).toEqual(['Generate Report']);
    expect(role('IPG Bank Officer').permissions).toContain('settlement-report-view');
    expect(shown(role('IPG Bank Officer'))).toEqual([]);
    expect(shown(role('Checker'))).toEqual([]);
    expect(shown({ username: 'x', permissions: ['settlement-report-view'] })).toEqual([]);
    // the button asks for what the call demands
    expect(screen.toolbarActions![0].permission).toBe('settlement-report-generate');
    expect(call.access).toEqual({ anyOf: ['settlement-report-generate'] });
  });
});
