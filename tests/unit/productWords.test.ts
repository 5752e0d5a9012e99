/**
 * The project speaks of the product: no file tells how it was built (a session or an issue by number). The frozen
 * migrations are the one exception: a shipped migration's text never changes (start-up compares its
 * checksum), so the comments of the earliest ones keep their words.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TEXT = /\.(ts|tsx|mjs|js|json|md|css|html|sql|yml|yaml|sh|txt)$|^\.ci\/run$/;
const FROZEN = /^src\/server\/db\/migrations\/sql\//;
const WORDS = /\b(session|issue)s? #?\d+/i;

describe("the project's words", () => {
  it('no tracked file speaks of the sessions or issues that made it', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && TEXT.test(f) && !FROZEN.test(f));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (WORDS.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('finds such words where they are', () => {
    // spelt apart here, so that this file passes its own check
    expect(WORDS.test(['as measured in session', '30'].join(' '))).toBe(true);
    expect(WORDS.test(['Goal 4 of issue', '8'].join(' '))).toBe(true);
    expect(WORDS.test('sessions last 12 hours')).toBe(false);
  });
});
