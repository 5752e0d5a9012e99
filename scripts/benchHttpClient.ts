/**
 * The bench's HTTP client: HTTP/1.1 on one kept-alive TCP connection, one request at a time, replies
 * of a Content-Length or chunked, the body decompressed in one call. It does what a browser's native
 * network stack does for a reply and no more, so that the time of a call is the server's and the
 * network's, not a JavaScript client's: Node's http client (request and response objects, streams and
 * events per call) costs ~0.1 ms of its own per call here and Node's fetch ~1.5 ms (bench-api's
 * --node-http and --fetch measure with those instead).
 */
import { connect, type Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface HttpReply {
  readonly status: number;
  /** The body, decompressed, as text. */
  readonly text: string;
  /** The Content-Encoding it came in ('identity' when none). */
  readonly encoding: string;
  /** Its size as sent (compressed), in bytes. */
  readonly wireBytes: number;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/** One reply being read: its head, then its body by Content-Length or by chunks. */
class ReplyReader {
  private pending: Buffer = Buffer.alloc(0);
  private head?: { status: number; headers: Map<string, string> };
  private readonly parts: Buffer[] = [];
  private received = 0;
  /** Content-Length replies: bytes still to come; chunked: bytes left of the current chunk (-1: at a size line). */
  private left = -1;
  private chunked = false;
  private afterChunk = false;

  /** Feeds bytes; true once the reply is whole. */
  feed(data: Buffer): boolean {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (!this.head) {
      const end = this.pending.indexOf(HEAD_END);
      if (end < 0) return false;
      const lines = this.pending.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0].split(' ')[1]);
      const headers = new Map<string, string>();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      this.head = { status, headers };
      this.pending = this.pending.subarray(end + HEAD_END.length);
      this.chunked = /\bchunked\b/i.test(headers.get('transfer-encoding') ?? '');
      if (!this.chunked) {
        const length = headers.get('content-length');
        if (length === undefined) throw new Error('a reply with neither Content-Length nor chunks');
        this.left = Number(length);
      }
    }
    return this.chunked ? this.readChunks() : this.readLength();
  }

  private readLength(): boolean {
    const take = this.pending.subarray(0, this.left);
    if (take.length > 0) this.parts.push(take);
    this.left -= take.length;
    this.received += take.length;
    this.pending = this.pending.subarray(take.length);
    return this.left === 0;
  }

  private readChunks(): boolean {
    for (;;) {
      if (this.afterChunk) {
        if (this.pending.length < CRLF.length) return false;
        this.pending = this.pending.subarray(CRLF.length);
        this.afterChunk = false;
      }
      if (this.left < 0) {
        const eol = this.pending.indexOf(CRLF);
        if (eol < 0) return false;
        const size = parseInt(this.pending.subarray(0, eol).toString('latin1'), 16);
        if (Number.isNaN(size)) throw new Error('a malformed chunk size');
        if (size === 0) {
          // the last chunk: no trailers are sent here, just the blank line
          if (this.pending.length < eol + 2 * CRLF.length) return false;
          this.pending = this.pending.subarray(eol + 2 * CRLF.length);
          return true;
        }
        this.left = size;
        this.pending = this.pending.subarray(eol + CRLF.length);
      }
      const take = this.pending.subarray(0, this.left);
      if (take.length > 0) this.parts.push(take);
      this.left -= take.length;
      this.received += take.length;
      this.pending = this.pending.subarray(take.length);
      if (this.left > 0) return false;
      this.left = -1;
      this.afterChunk = true;
    }
  }

  reply(): HttpReply & { close: boolean } {
    const head = this.head!;
    const raw = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.received);
    const encoding = head.headers.get('content-encoding') ?? 'identity';
    const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
    return { status: head.status, text: body.toString(), encoding, wireBytes: this.received, close: head.headers.get('connection')?.toLowerCase() === 'close' };
  }
}

export class BenchHttpClient {
  private socket?: Socket;
  private reading?: { reader: ReplyReader; resolve: (r: HttpReply) => void; reject: (e: Error) => void };

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** POSTs a JSON body; resolves with the whole reply once its last byte is in. */
  async post(path: string, body: string, headers: Readonly<Record<string, string>> = {}): Promise<HttpReply> {
    if (this.reading) throw new Error('one request at a time');
    const socket = await this.connection();
    const payload = Buffer.from(body);
    let head = `POST ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
    const all = { 'accept-encoding': 'gzip, deflate, br', ...headers };
    for (const [name, value] of Object.entries(all)) head += `${name}: ${value}\r\n`;
    const reply = new Promise<HttpReply>((resolve, reject) => (this.reading = { reader: new ReplyReader(), resolve, reject }));
    socket.write(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]));
    return reply;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private async connection(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = connect(this.port, this.host);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const fail = (err: Error) => {
      const r = this.reading;
      this.reading = undefined;
      r?.reject(err);
    };
    socket.on('data', (data: Buffer) => {
      const r = this.reading;
      if (!r) return fail(new Error('bytes arrived with no request waiting'));
      try {
        if (!r.reader.feed(data)) return;
        this.reading = undefined;
        const { close, ...reply } = r.reader.reply();
        if (close) this.close();
        r.resolve(reply);
      } catch (err) {
        this.close();
        fail(err as Error);
      }
    });
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the connection closed before the reply was whole')));
    this.socket = socket;
    return socket;
  }
}
