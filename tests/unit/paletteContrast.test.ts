/**
 * The palette's tokens (src/styles.css) in both themes meet WCAG AA where they carry meaning: body and
 * secondary text 4.5:1 on every background, links and the focus ring (accent) 4.5:1 as text and so also
 * 3:1 as a UI part, white text 4.5:1 on the filled controls. axe checks the rendered text of every
 * screen; this checks the tokens themselves, including the focus ring, which axe does not measure.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8');

function tokens(selector: string): Record<string, [number, number, number]> {
  const start = css.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const block = css.slice(start, css.indexOf('}', start));
  const out: Record<string, [number, number, number]> = {};
  for (const m of block.matchAll(/--([a-z-]+):\s*(\d+)\s+(\d+)\s+(\d+);/g)) out[m[1]!] = [Number(m[2]), Number(m[3]), Number(m[4])];
  return out;
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: [number, number, number] = [255, 255, 255];

describe.each([
  ['light', ':root'],
  ['dark', ':root.dark'],
])('the %s palette', (_theme, selector) => {
  const t = tokens(selector);
  const backgrounds = ['canvas', 'surface', 'muted'] as const;

  it('has every token the console uses', () => {
    for (const name of ['canvas', 'surface', 'muted', 'line', 'ink', 'ink-soft', 'accent', 'accent-strong', 'accent-fill', 'accent-fill-strong']) expect(t[name], name).toBeDefined();
  });

  it.each(['ink', 'ink-soft', 'accent', 'accent-strong'])('%s text is 4.5:1 or more on every background', (fg) => {
    for (const bg of backgrounds) expect(contrast(t[fg]!, t[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('white text is 4.5:1 or more on the filled controls, hovered too', () => {
    for (const fill of ['accent-fill', 'accent-fill-strong']) expect(contrast(WHITE, t[fill]!), fill).toBeGreaterThanOrEqual(4.5);
  });

  it('the focus ring (accent) stands out 3:1 or more from every background (it sits outside the control, offset 2 px)', () => {
    for (const bg of backgrounds) expect(contrast(t.accent!, t[bg]!), `ring on ${bg}`).toBeGreaterThanOrEqual(3);
  });
});
