/**
 * OpenTelemetry traces (docs/observability.md), on only when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: nothing of it is loaded otherwise.
 *
 * Set up by hand rather than through the SDK's auto-instrumentation (which must load before the modules
 * it patches, awkward with ES modules run by tsx): a NodeTracerProvider registered as the process's
 * (its context manager carries the active span across awaits), spans sent in batches over OTLP/HTTP
 * (JSON), and two sources of spans:
 * - @fastify/otel, registered on the app before its routes: a SERVER span per request (named by the
 *   call, e.g. `POST /api/Transaction/get-ceftTransaction`, see recorder.ts setRouteLabel) with child
 *   spans for the hooks and the handler; the health and metrics endpoints are left out;
 * - the Db layer (src/server/db/db.ts withQuerySpans): a `db.query` span per statement, on the
 *   embedded database and on PostgreSQL alike, with the statement's first 200 characters (never its
 *   parameters). The pg driver's own instrumentation is not used: it would add a second span per
 *   statement on PostgreSQL only.
 * The request's trace id is in every log line of its hooks and handler (`trace_id`), in the
 * x-correlation-id header and in a 500's `correlationId`.
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const TRACER_NAME = 'remit-console';

export interface TracingOptions {
  /** Where the spans go, the full URL (`http://collector:4318/v1/traces`); default: the exporter's own reading of OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT. */
  url?: string;
  /** The service.name resource attribute (default OTEL_SERVICE_NAME, else remit-console). */
  serviceName?: string;
  /** How long the batch waits before it is sent, in ms (default 2000; tests flush instead). */
  scheduledDelayMillis?: number;
}

export interface Tracing {
  readonly tracer: Tracer;
  /** Registers the request spans on an app: call before its routes. */
  instrument(app: FastifyInstance): Promise<void>;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and unregisters the provider (the process's tracing is off again). */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces. */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

const HEALTH_OR_METRICS = /^\/(health|metrics)(\/|\?|$)/;

export function startTracing(options: TracingOptions = {}): Tracing {
  const exporter = new OTLPTraceExporter(options.url ? { url: options.url } : {});
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? (process.env.OTEL_SERVICE_NAME?.trim() || 'remit-console') }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.scheduledDelayMillis ?? 2000 })],
  });
  provider.register();
  const fastifyOtel = new FastifyOtelInstrumentation({
    // load balancers' and Prometheus' polling is not worth a trace each
    ignorePaths: ({ url }: { url: string }) => HEALTH_OR_METRICS.test(url),
    // the path without its query string: a download link's signature stays out of the traces
    requestHook: (span, request) => span.setAttribute('url.path', request.url.split('?')[0]),
  });
  fastifyOtel.setTracerProvider(provider);
  return {
    tracer: provider.getTracer(TRACER_NAME),
    async instrument(app) {
      await app.register(fastifyOtel.plugin());
      // after the request span has started: its trace id for the logs and the correlation id
      app.addHook('onRequest', (request, reply, done) => {
        const span = request.opentelemetry?.().span;
        const ids = span?.spanContext();
        if (ids && trace.isSpanContextValid(ids)) {
          traceIds.set(request, ids.traceId);
          const log = request.log.child({ trace_id: ids.traceId, span_id: ids.spanId });
          (log as unknown as Record<symbol, boolean>)[TRACED_LOGGER] = true;
          request.log = log;
          reply.log = log;
        }
        done();
      });
    },
    flush: () => provider.forceFlush(),
    async shutdown() {
      fastifyOtel.disable();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

const traceIds = new WeakMap<FastifyRequest, string>();
const TRACED_LOGGER = Symbol('logger bound to a trace');

/** The id a request is known by in the logs and to its caller: its trace id while tracing is on, else its request id. */
export function correlationIdOf(request: FastifyRequest): string {
  return traceIds.get(request) ?? request.id;
}

/**
 * The logger's mixin while tracing is on: a line logged while a span is active (background work that
 * runs inside a request's span, a database query's failure) carries its trace and span ids. A
 * request's own logger has them bound already (instrument above) and is left as it is.
 */
export function traceMixin(_object: object, _level: number, logger?: unknown): Record<string, string> {
  if (logger && (logger as Record<symbol, unknown>)[TRACED_LOGGER]) return {};
  const ids = trace.getActiveSpan()?.spanContext();
  return ids && trace.isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
