/** A known business failure: the reply is `{ statusCode: status, data: { message, code? } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
