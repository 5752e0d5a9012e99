/**
 * How many API calls (POST /api/...) this server process is answering right now. The export worker
 * reads it (./../exportJobs/worker.ts): between two batches a running export waits while a call is being
 * answered, so on a small machine a person's call does not share the cores with the export's query.
 * Only the calls count: the change-request event stream and a file download stay open for long and
 * would hold an export back for their whole length.
 */
import type { FastifyInstance } from 'fastify';

export interface CallsInFlight {
  /** The calls being answered now. */
  readonly count: () => number;
}

export function trackCallsInFlight(app: FastifyInstance): CallsInFlight {
  let inFlight = 0;
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'POST' && request.url.startsWith('/api/')) {
      inFlight++;
      // 'close' comes once for every reply: sent, failed or abandoned by the client
      reply.raw.once('close', () => inFlight--);
    }
    done();
  });
  return { count: () => inFlight };
}
