/** Where the console's calls go: config.json's API base, the internal base on the internal port, the defaults without a file. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiBaseFor, apiUrl, loadRuntimeConfig, requestTimeoutMs, parseRuntimeConfig, setRuntimeConfig } from '../../src/console/apiBase';

afterEach(() => {
  setRuntimeConfig({});
  vi.unstubAllGlobals();
});

describe('config.json', () => {
  it("defaults: the page's own origin, the internal port 7027 and the specification's 90,000 ms", () => {
    const c = parseRuntimeConfig({}).config;
    expect(c).toEqual({ apiBase: '', internalApiBase: '', internalPort: 7027, timeoutMs: 90_000 });
    expect(apiUrl('/api/bank/list')).toBe('/api/bank/list');
    expect(requestTimeoutMs()).toBe(90_000);
  });

  it('the internal API base on the internal port, the public one elsewhere', () => {
    const c = parseRuntimeConfig({ apiBase: 'https://api.bank.example/', internalApiBase: 'http://10.0.0.5:8080', internalPort: 7027 }).config;
    expect(apiBaseFor(c, '7027')).toBe('http://10.0.0.5:8080');
    expect(apiBaseFor(c, '443')).toBe('https://api.bank.example');
    expect(apiBaseFor(c, '')).toBe('https://api.bank.example');
    // no internal base: the public one on every port
    expect(apiBaseFor(parseRuntimeConfig({ apiBase: 'https://api.bank.example' }).config, '7027')).toBe('https://api.bank.example');
  });

  it('prefixes calls and image paths with the base, and leaves whole addresses alone', () => {
    vi.stubGlobal('location', { port: '' });
    setRuntimeConfig({ apiBase: 'https://api.bank.example/remit' });
    expect(apiUrl('/api/bank/list')).toBe('https://api.bank.example/remit/api/bank/list');
    expect(apiUrl('images/banks/1.png')).toBe('https://api.bank.example/remit/images/banks/1.png');
    expect(apiUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(apiUrl('https://cdn.example/x.png')).toBe('https://cdn.example/x.png');
  });

  it('a file that is not valid keeps the defaults and says why in the console', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const c = setRuntimeConfig({ apiBase: 'api.bank.example', timeoutMs: 10 });
    expect(c.apiBase).toBe('');
    expect(c.timeoutMs).toBe(90_000);
    expect(error.mock.calls[0]?.[0]).toBe("config.json: apiBase, timeoutMs not valid (see docs/configuration.md); calls go to this page's own origin");
    error.mockRestore();
  });

  it('is read before the first call; a missing file keeps the defaults', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ apiBase: 'https://api.bank.example', timeoutMs: 30000 }), { status: 200 })),
    );
    expect((await loadRuntimeConfig()).timeoutMs).toBe(30_000);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('not found', { status: 404 })),
    );
    setRuntimeConfig({});
    expect(await loadRuntimeConfig()).toEqual(parseRuntimeConfig({}).config);
  });
});
