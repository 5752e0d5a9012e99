/**
 * The approval view's comparison: a changed field's old value is struck through and secondary (text,
 * and list values such as a role's permissions, whose old tags turn grey and struck), never looking like
 * the new one; images are shown at the specification's 70 px, each a link to the full-size image.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChangeRequest } from '../../src/api/contract';
import { ChangeComparison } from '../../src/console/views/ChangeComparison';

const request = (originalRecord: ChangeRequest['originalRecord'], newRecord: ChangeRequest['newRecord']): ChangeRequest => ({
  changeRequestId: 7,
  type: 'Role',
  pendingAction: 'EDIT',
  requestedBy: 'maker',
  requestedTime: '2026-12-06T03:00:00Z',
  originalRecord,
  newRecord,
});

/** The markup of the element that carries `data-old` (up to the matching close of its first tag's span). */
const oldPart = (html: string) => html.slice(html.indexOf('data-old'), html.indexOf('data-new'));

describe('ChangeComparison', () => {
  it('strikes through the old text and the old permissions; the new ones stay plain', () => {
    const html = renderToStaticMarkup(
      createElement(ChangeComparison, {
        request: request(
          { role_name: { header: 'Role Name', type: 'STRING', value: 'Desk' }, permissions: { header: 'Permissions', type: 'STRING_ARRAY', value: ['bank-view'] } },
          { role_name: { header: 'Role Name', type: 'STRING', value: 'Front Desk' }, permissions: { header: 'Permissions', type: 'STRING_ARRAY', value: ['bank-view', 'bank-create'] } },
        ),
      }),
    );
    const [roleName, permissions] = html.split('data-field="permissions"');
    expect(oldPart(roleName!)).toMatch(/class="[^"]*line-through[^"]*"/);
    expect(oldPart(roleName!)).toContain('Desk');
    expect(oldPart(permissions!)).toMatch(/<span class="line-through">bank-view<\/span>/);
    const newPart = permissions!.slice(permissions!.indexOf('data-new'));
    expect(newPart).toContain('bank-create');
    expect(newPart).not.toContain('line-through');
  });

  it('shows images at 70 px, each opening full size', () => {
    const html = renderToStaticMarkup(
      createElement(ChangeComparison, {
        request: request({ logo: { header: 'Logo', type: 'IMAGE', value: 'images/banks/old.png' } }, { logo: { header: 'Logo', type: 'IMAGE', value: 'images/banks/new.png' } }),
      }),
    );
    const images = html.match(/<img [^>]*>/g) ?? [];
    expect(images).toHaveLength(2);
    for (const img of images) expect(img).toContain('h-[70px]');
    expect(html.match(/<a [^>]*target="_blank"[^>]*>/g)).toHaveLength(2);
  });
});
