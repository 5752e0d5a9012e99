import { describe, expect, it } from 'vitest';
import { nextThemeChoice } from '../../src/console/shell';

describe('the theme toggle', () => {
  it('goes from following the system to the other theme, to the system theme chosen, and back', () => {
    expect(nextThemeChoice('system', 'light')).toBe('dark');
    expect(nextThemeChoice('dark', 'light')).toBe('light');
    expect(nextThemeChoice('light', 'light')).toBe('system');
    expect(nextThemeChoice('system', 'dark')).toBe('light');
    expect(nextThemeChoice('light', 'dark')).toBe('dark');
    expect(nextThemeChoice('dark', 'dark')).toBe('system');
  });
});
