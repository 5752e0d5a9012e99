/** The payment-network simulator's rules, and the choice of network by configuration. */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createSimulator } from '../../src/server/payments/simulator';
import { createPaymentNetwork, paymentNetwork } from '../../src/server/payments';

const now = new Date(2026, 10, 22, 15, 0, 0);
const paidToday = new Date(2026, 10, 22, 9, 0, 0);
const paidLastWeek = new Date(2026, 10, 15, 9, 0, 0);
const reversal = (cardPaymentTime: Date | null) => ({ reference: '261122100000001', ipgTransactionId: '123456789012', amount: 100, currency: 'AED', cardPaymentTime, refundCommission: 1.5 });
const transfer = { reference: '261122100000001', bankCode: '7010', accountNumber: '1234567890', amountLkr: 25_000, attempt: 1 };

describe('the simulator', () => {
  const network = createSimulator({ failureRate: 0 });

  it('voids only a card payment of today, and refunds only within 180 days', async () => {
    const voided = await network.voidCardPayment(reversal(paidToday), now);
    expect(voided).toMatchObject({ ok: true, status: 'SUCCESS', code: '00', message: 'Approved', time: now });
    expect(voided.transactionId).toMatch(/^VD\d{10}$/);
    expect(await network.voidCardPayment(reversal(paidLastWeek), now)).toMatchObject({ ok: false, status: 'FAILED', code: '12' });
    const refunded = await network.refundCardPayment(reversal(paidLastWeek), now);
    expect(refunded).toMatchObject({ ok: true, status: 'SUCCESS', description: 'Card payment refunded (1.5% commission retained)' });
    expect(await network.refundCardPayment(reversal(new Date(2026, 1, 1)), now)).toMatchObject({ ok: false, code: '57' });
    expect(await network.refundCardPayment(reversal(null), now)).toMatchObject({ ok: false, code: '25' });
  });

  it('transfers only to a plausible account at a known bank', async () => {
    const ok = await network.transferFunds(transfer, now);
    expect(ok).toMatchObject({ ok: true, status: 'SUCCESS', description: 'Fund transfer completed' });
    expect(ok.transactionId).toMatch(/^CEFT\d{12}$/);
    expect(await network.transferFunds({ ...transfer, accountNumber: '12-AB' }, now)).toMatchObject({ ok: false, code: '52' });
    expect(await network.transferFunds({ ...transfer, bankCode: 'X' }, now)).toMatchObject({ ok: false, code: '15' });
  });

  it('declines at the configured rate, the same way for the same request', async () => {
    const always = createSimulator({ failureRate: 1 });
    const declined = await always.transferFunds(transfer, now);
    expect(declined.ok).toBe(false);
    expect(declined.description).toMatch(/^Fund transfer failed: /);
    expect(await always.transferFunds(transfer, now)).toEqual(declined);
    expect((await always.holdTransfer({ reference: 'x', reason: '' }, now)).ok).toBe(false);
    const sometimes = createSimulator({ failureRate: 0.3 });
    let failures = 0;
    for (let attempt = 1; attempt <= 400; attempt++) if (!(await sometimes.transferFunds({ ...transfer, attempt }, now)).ok) failures++;
    expect(failures).toBeGreaterThan(80);
    expect(failures).toBeLessThan(160);
  });
});

describe('the network by configuration', () => {
  it('is the simulator by default, with its failure rate from the environment', async () => {
    expect((await createPaymentNetwork({})).name).toBe('simulator');
    const failing = await createPaymentNetwork({ PAYMENT_ADAPTER: 'simulator', PAYMENT_SIMULATOR_FAILURE_RATE: '1' });
    expect((await failing.transferFunds(transfer, now)).ok).toBe(false);
    await expect(createPaymentNetwork({ PAYMENT_SIMULATOR_FAILURE_RATE: '2' })).rejects.toThrow(/from 0 to 1/);
  });

  it('loads a real adapter from a module, and refuses what it cannot use', async () => {
    const file = resolve('tests/fixtures/payments/recordingNetwork.mjs');
    const network = await createPaymentNetwork({ PAYMENT_ADAPTER: `module:${file}` });
    expect(network.name).toBe('recording');
    expect((await network.holdTransfer({ reference: 'abc', reason: '' }, now)).status).toBe('HOLD');
    await expect(createPaymentNetwork({ PAYMENT_ADAPTER: 'module:package.json' })).rejects.toThrow();
    await expect(createPaymentNetwork({ PAYMENT_ADAPTER: 'ftp' })).rejects.toThrow(/PAYMENT_ADAPTER must be/);
  });

  it('is built once per configuration', async () => {
    const env = { PAYMENT_SIMULATOR_FAILURE_RATE: '0.5' };
    expect(await paymentNetwork(env)).toBe(await paymentNetwork({ ...env }));
    expect(await paymentNetwork({ PAYMENT_SIMULATOR_FAILURE_RATE: '0.4' })).not.toBe(await paymentNetwork(env));
  });
});
