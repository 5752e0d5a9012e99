/**
 * What the server's code tells the metrics (src/server/observability/metrics.ts) as it happens: a
 * failed sign-in, a lockout, a money action's outcome, export file bytes written. Carried by every
 * handler context (Ctx.metrics); without a metrics endpoint (neither METRICS_PORT nor METRICS_TOKEN
 * set) it is `noMetrics`, which does nothing.
 */
import type { FastifyRequest } from 'fastify';

/** Why a sign-in did not sign in: a wrong password (or an unknown or disabled account), the account locked from that address, its back-off, or the address's limit. */
export type SigninFailureReason = 'password' | 'locked' | 'backoff' | 'throttled';

/** The money actions as the code names them (src/server/areas/transactions/actions.ts ActionName), in lower case. */
export type MoneyActionKind = 'hold' | 'manual_fund_transfer' | 'void' | 'refund';

/** ok: it was carried out; refused: its guard refused it (nothing changed); failed: the payment network declined it or could not be reached. */
export type MoneyActionOutcome = 'ok' | 'refused' | 'failed';

export interface MetricsRecorder {
  signinFailure(reason: SigninFailureReason): void;
  /** An account has just been locked from an address (its MAX_FAILURES-th wrong password there). */
  lockout(): void;
  moneyAction(kind: MoneyActionKind, outcome: MoneyActionOutcome): void;
  exportBytesWritten(bytes: number): void;
}

export const noMetrics: MetricsRecorder = {
  signinFailure: () => {},
  lockout: () => {},
  moneyAction: () => {},
  exportBytesWritten: () => {},
};

const routeLabels = new WeakMap<FastifyRequest, string>();

/**
 * The route a request is counted and traced under when Fastify's own route pattern says too little:
 * the API's one route `/api/*` names its call (`/api/transaction/CeftList`, the contract's path).
 */
export function setRouteLabel(request: FastifyRequest, label: string): void {
  routeLabels.set(request, label);
  // the request span (src/server/observability/tracing.ts) takes the call's name too
  const otel = (request as unknown as { opentelemetry?: () => { span?: { updateName(name: string): unknown; setAttribute(key: string, value: string): unknown } | null } }).opentelemetry?.();
  if (otel?.span) {
    otel.span.updateName(`${request.method} ${label}`);
    otel.span.setAttribute('http.route', label);
  }
}

/** The label a request is counted under: the call it named, else Fastify's route pattern (never the raw URL), else `unmatched`. */
export function routeLabelOf(request: FastifyRequest): string {
  const named = routeLabels.get(request);
  if (named) return named;
  const url = request.routeOptions?.url;
  // the API's catch-all without a call of the contract (an unknown call, a 405) and the not-found handler
  if (!url || url === '/api/*') return 'unmatched';
  return url;
}
