/** Exports are built from the reply's `fields` (spec 001 §7, 002 §7), not recomputed from the console's own definition. */
import { describe, expect, it } from 'vitest';
import { exportFieldsFor, exportFieldsOf } from '../../src/definitions/exportFields';
import { usersScreen } from '../../screens/users';

describe('the columns of an export', () => {
  it("are the reply's fields (header, dataKey, type) when it sends them, even where they differ from the definition", () => {
    const sent = [
      { header: 'Login Name', dataKey: 'username', type: 'STRING' as const },
      { header: 'Joined', dataKey: 'created_at', type: 'DATE' as const },
    ];
    expect(exportFieldsFor(usersScreen, { users: [], fields: sent })).toEqual(sent);
  });

  it("fall back to the screen's columns when the reply has no usable fields", () => {
    const own = exportFieldsOf(usersScreen);
    expect(exportFieldsFor(usersScreen, { users: [] })).toEqual(own);
    expect(exportFieldsFor(usersScreen, { users: [], fields: [] })).toEqual(own);
    expect(exportFieldsFor(usersScreen, { users: [], fields: [{ header: 'x' }] })).toEqual(own);
    expect(exportFieldsFor(usersScreen, undefined)).toEqual(own);
  });
});
