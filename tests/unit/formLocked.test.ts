/** Every edit form whose record carries `locked` (spec 000 §4, 002 §1): the form runtime reads the lock from the get-for-edit reply. */
import { describe, expect, it } from 'vitest';
import { loadedRecordLocked, lockedRecordMessage } from '../../src/console/views/FormView';
import { userGetForEdit } from '../../src/api/users';
import { roleGetForEdit } from '../../src/api/roles';
import { bankGetForEdit } from '../../src/api/banks';
import { advertisementGetForEdit } from '../../src/api/advertisements';

describe('an edit form of a locked record', () => {
  it('reads `locked` from the record each get-for-edit reply wraps', () => {
    // each edit call's reply wraps one record whose schema has `locked`
    for (const call of [userGetForEdit, roleGetForEdit, bankGetForEdit, advertisementGetForEdit]) {
      const shape = (call.data as unknown as { shape: Record<string, { shape?: Record<string, unknown> }> }).shape;
      const [key] = Object.keys(shape);
      expect(Object.keys(shape[key].shape ?? {}), call.path).toContain('locked');
      expect(loadedRecordLocked({ [key]: { id: 3, locked: 1 } }), call.path).toBe(true);
      expect(loadedRecordLocked({ [key]: { id: 3, locked: 0 } }), call.path).toBe(false);
    }
    expect(loadedRecordLocked({ locked: 1 })).toBe(true);
    expect(loadedRecordLocked({ bank: { id: 3 } })).toBe(false);
    expect(loadedRecordLocked(null)).toBe(false);
  });

  it('says why it cannot be saved', () => {
    expect(lockedRecordMessage).toMatch(/locked: a change request for it is pending approval/);
  });
});
