/**
 * Where the console's calls go: `{api}/api/<path>`, with `{api}` and the request timeout read from
 * `config.json`, served beside the built console and fetched once before the first call, so that one
 * build can face any backend that speaks the contract. An empty base is the page's own origin. When the
 * page is served from the internal web port (`internalPort`, 7027 by default), the internal API base is
 * used instead. Without the file (or with a file that is not valid), the console calls its own origin.
 */
/** The specification's request timeout. */
export const DEFAULT_TIMEOUT_MS = 90_000;
export const DEFAULT_INTERNAL_PORT = 7027;

export interface RuntimeConfig {
  apiBase: string;
  internalApiBase: string;
  internalPort: number;
  timeoutMs: number;
}

export const DEFAULT_RUNTIME_CONFIG: Readonly<RuntimeConfig> = { apiBase: '', internalApiBase: '', internalPort: DEFAULT_INTERNAL_PORT, timeoutMs: DEFAULT_TIMEOUT_MS };

const BASE = /^(https?:\/\/[^/?#\s]+(\/[^?#\s]*)?)?$/;
const RULES: Record<keyof RuntimeConfig, (x: unknown) => boolean> = {
  apiBase: (x) => typeof x === 'string' && BASE.test(x.trim()),
  internalApiBase: (x) => typeof x === 'string' && BASE.test(x.trim()),
  internalPort: (x) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= 65535,
  timeoutMs: (x) => Number.isInteger(x) && (x as number) >= 1000 && (x as number) <= 600_000,
};

/**
 * The file's content read as a configuration (missing keys take the defaults), and the keys whose
 * values are not valid: the bases http(s) addresses without query or fragment (or empty), the port
 * 1 to 65535, the timeout 1,000 to 600,000 ms. Checked by hand: zod is not in the console's first load.
 */
export function parseRuntimeConfig(value: unknown): { config: RuntimeConfig; problems: string[] } {
  const v = (value && typeof value === 'object' && !Array.isArray(value) ? value : { '(root)': value }) as Record<string, unknown>;
  const config: Record<string, unknown> = { ...DEFAULT_RUNTIME_CONFIG };
  const problems = '(root)' in v ? ['(root)'] : [];
  for (const key of Object.keys(RULES) as (keyof RuntimeConfig)[]) {
    const x = v[key];
    if (x === undefined) continue;
    if (!RULES[key](x)) problems.push(key);
    else config[key] = typeof x === 'string' ? x.trim().replace(/\/+$/, '') : x;
  }
  return { config: config as unknown as RuntimeConfig, problems };
}

let config: RuntimeConfig = { ...DEFAULT_RUNTIME_CONFIG };

/** The API base this page uses: the internal one on the internal port (when set), else the public one. */
export function apiBaseFor(c: RuntimeConfig, pagePort: string): string {
  return pagePort === String(c.internalPort) && c.internalApiBase ? c.internalApiBase : c.apiBase;
}

/** The address of a call or of a path the API host serves (images, export files). */
export function apiUrl(path: string): string {
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  const b = apiBaseFor(config, typeof location === 'undefined' ? '' : location.port);
  return `${b}${path.startsWith('/') ? path : `/${path}`}`;
}

export function requestTimeoutMs(): number {
  return config.timeoutMs;
}

/** Sets the configuration (the file's content; tests). Returns what is in force. */
export function setRuntimeConfig(value: unknown): RuntimeConfig {
  const { config: parsed, problems } = parseRuntimeConfig(value ?? {});
  if (problems.length === 0) config = parsed;
  else console.error(`config.json: ${problems.join(', ')} not valid (see docs/configuration.md); calls go to this page's own origin`);
  return config;
}

/** Reads config.json once, before the first call. A missing file keeps the defaults. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  try {
    const res = await fetch('/config.json', { cache: 'no-cache' });
    if (res.ok) return setRuntimeConfig(await res.json());
  } catch {
    // no file, or not JSON: the defaults
  }
  return config;
}
