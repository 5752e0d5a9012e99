/**
 * The settlement screens' Generate Report button: shown to the holders of settlement-report-generate
 * only (README "Settlement"), the permission the generate calls demand on the server.
 */
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { instantSettlementScreen, settlementScreen } from '../../screens/settlement';
import { visibleToolbarActions } from '../../src/console/views/ListToolbar';
import { generateInstantSettlement, generateSettlement } from '../../src/api/reports';
import { demoRoles } from '../../src/server/seed/demo';

const role = (name: string) => ({ username: name, permissions: [...demoRoles.find((r) => r.name === name)!.permissions] });

describe('Generate Report', () => {
  const now = new Date();
  // today's report, empty: the one state in which generating is offered at all
  const ctx = { filters: { date: format(now, 'yyyy-MM-dd'), fetchCount: 10 }, reply: { transactions: [], hasRatesUpdated: true, messages: [] }, rows: [], now } as never;

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
