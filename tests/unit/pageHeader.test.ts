/**
 * The page header says where the user is once: a screen at the top of its trail shows its heading alone
 * (no breadcrumb repeating it), and a trail is kept only where it leads back somewhere.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import { PageHeader } from '../../src/console/views/PageHeader';

describe('PageHeader', () => {
  const top = screens.filter((s) => 'title' in s && !(s.breadcrumb ?? []).some((c) => c.to));
  const nested = screens.filter((s) => (s.breadcrumb ?? []).some((c) => c.to));

  it('shows the heading alone on every screen at the top of its trail', () => {
    expect(top.length).toBeGreaterThan(20);
    for (const screen of top) {
      const html = renderToStaticMarkup(createElement(PageHeader, { screen }));
      expect(html, screen.route).not.toContain('Breadcrumb');
      expect(html, screen.route).toContain(`<h1 class="text-xl font-semibold text-ink">${screen.title.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')}</h1>`);
    }
  });

  it('keeps the trail of the forms under their lists', () => {
    expect(nested.map((s) => s.route)).toEqual(expect.arrayContaining(['/banks/create', '/users/create']));
  });
});
