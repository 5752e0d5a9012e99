import type { z } from 'zod';
import { HttpError } from './httpError';

/**
 * The JSON body of a request. Only application/json is accepted, sent uncompressed (request bodies
 * are small; the server does not decompress them); an empty body counts as `{}`.
 * The raw text arrives from the catch-all content-type parser registered in api.ts. Strings holding
 * NUL or lone surrogate halves are refused (400 naming the field) before the schema sees them.
 */
export function readJsonBody(contentType: string | undefined, raw: unknown, contentEncoding?: string): unknown {
  if (contentEncoding !== undefined && !/^\s*(identity)?\s*$/i.test(contentEncoding)) {
    throw new HttpError(415, 'Request body must be sent uncompressed (no Content-Encoding)');
  }
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return {};
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') throw new HttpError(415, 'Request body must be application/json');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  const problem = badText(body);
  if (problem) throw new HttpError(400, problem);
  return body;
}

/** NUL (PostgreSQL text cannot hold it) or a lone surrogate half (not Unicode: it would be stored altered). */
// eslint-disable-next-line no-control-regex -- NUL is the character this looks for
const BAD_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first string (or property name) of the body that no text column can store as sent, as a message
 * naming it (`field.path: ...`). Walks without recursion, so a deeply nested body cannot exhaust the stack.
 */
export function badText(body: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (BAD_CHARACTER.test(value)) return `${path || 'body'}: Text cannot contain NUL characters or invalid Unicode`;
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: path ? `${path}.${i}` : String(i) }));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (BAD_CHARACTER.test(k)) return `${path || 'body'}: Property names cannot contain NUL characters or invalid Unicode`;
        stack.push({ value: v, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return undefined;
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
