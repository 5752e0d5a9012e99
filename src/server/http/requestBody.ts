import type { z } from 'zod';
import { HttpError } from './httpError';

/**
 * The JSON body of a request. Only application/json is accepted; an empty body counts as `{}`.
 * The raw text arrives from the catch-all content-type parser registered in api.ts.
 */
export function readJsonBody(contentType: string | undefined, raw: unknown): unknown {
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return {};
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') throw new HttpError(415, 'Request body must be application/json');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

/**
 * A zod failure as one message naming the fields: `name: <message>`, several joined with '; '.
 * Unknown properties are named by their keys; a problem with the body as a whole is named `body`.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.path.length > 0) return `${issue.path.map(String).join('.')}: ${issue.message}`;
      if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: ${issue.message}`;
      return `body: ${issue.message}`;
    })
    .join('; ');
}
