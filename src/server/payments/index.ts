/**
 * Which payment network the actions use, chosen by configuration:
 *
 * - PAYMENT_ADAPTER unset or `simulator`: the simulator (./simulator.ts), with
 *   PAYMENT_SIMULATOR_FAILURE_RATE (0..1, default 0.08), PAYMENT_SIMULATOR_LATENCY_MS (default 0) and
 *   PAYMENT_SIMULATOR_LOG (a file it appends a line to per operation; unset: no log);
 * - PAYMENT_ADAPTER=module:<path>: a real adapter, an ES module (path absolute or relative to the
 *   working directory) exporting `createPaymentNetwork(env)` that returns a `PaymentNetwork`.
 *
 * The choice is read when first needed and again whenever these variables change.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { PaymentNetwork } from './network';
import { createSimulator } from './simulator';

export type { CardReversalRequest, HoldRequest, NetworkResult, PaymentNetwork, TransferRequest } from './network';

let cached: { key: string; network: Promise<PaymentNetwork> } | undefined;

function configKey(env: NodeJS.ProcessEnv): string {
  return [env.PAYMENT_ADAPTER ?? '', env.PAYMENT_SIMULATOR_FAILURE_RATE ?? '', env.PAYMENT_SIMULATOR_LATENCY_MS ?? '', env.PAYMENT_SIMULATOR_LOG ?? ''].join('|');
}

function isPaymentNetwork(v: unknown): v is PaymentNetwork {
  const n = v as Partial<PaymentNetwork> | null;
  return !!n && ['voidCardPayment', 'refundCardPayment', 'transferFunds', 'holdTransfer'].every((m) => typeof (n as Record<string, unknown>)[m] === 'function');
}

/** Builds the configured network (throws on a configuration it cannot honour). */
export async function createPaymentNetwork(env: NodeJS.ProcessEnv = process.env): Promise<PaymentNetwork> {
  const adapter = (env.PAYMENT_ADAPTER ?? '').trim();
  if (adapter === '' || adapter === 'simulator') {
    const rate = env.PAYMENT_SIMULATOR_FAILURE_RATE === undefined || env.PAYMENT_SIMULATOR_FAILURE_RATE === '' ? undefined : Number(env.PAYMENT_SIMULATOR_FAILURE_RATE);
    if (rate !== undefined && !(rate >= 0 && rate <= 1)) throw new Error('PAYMENT_SIMULATOR_FAILURE_RATE must be a number from 0 to 1');
    const latency = Number(env.PAYMENT_SIMULATOR_LATENCY_MS || 0);
    return createSimulator({ failureRate: rate, latencyMs: Number.isFinite(latency) ? latency : 0, logFile: env.PAYMENT_SIMULATOR_LOG || undefined });
  }
  if (adapter.startsWith('module:')) {
    const file = resolve(adapter.slice('module:'.length));
    const mod = (await import(pathToFileURL(file).href)) as { createPaymentNetwork?: (env: NodeJS.ProcessEnv) => unknown };
    if (typeof mod.createPaymentNetwork !== 'function') throw new Error(`${file} does not export createPaymentNetwork(env)`);
    const network = await mod.createPaymentNetwork(env);
    if (!isPaymentNetwork(network)) throw new Error(`${file}: createPaymentNetwork did not return a PaymentNetwork`);
    return network;
  }
  throw new Error(`PAYMENT_ADAPTER must be 'simulator' or 'module:<path>', not '${adapter}'`);
}

/** The network the actions use now. */
export function paymentNetwork(env: NodeJS.ProcessEnv = process.env): Promise<PaymentNetwork> {
  const key = configKey(env);
  if (!cached || cached.key !== key) {
    const network = createPaymentNetwork(env);
    // a failed configuration is retried on the next call rather than remembered
    network.catch(() => {
      if (cached?.network === network) cached = undefined;
    });
    cached = { key, network };
  }
  return cached.network;
}
