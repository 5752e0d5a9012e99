/**
 * The contract and migration parts of `npm run review` (scripts/reviewContract.ts): two small OpenAPI
 * documents and two lists of migration files in, the exact lines a reviewer reads out.
 */
import { describe, expect, it } from 'vitest';
import { renderReview } from '../../scripts/review';
import { compareContracts, compareMigrations, type OpenApiDocument } from '../../scripts/reviewContract';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const reply = (name: string) => ({ description: 'Success.', ...json(ref(name)) });
type Obj = Record<string, unknown>;
/** The object at `keys` inside a copy of a document, to edit in place. */
const obj = (doc: unknown, ...keys: (string | number)[]): Obj => keys.reduce<unknown>((o, k) => (o as Obj)[k], doc) as Obj;

const errorReply = { type: 'object', properties: { statusCode: { type: 'integer' }, data: { type: 'object', properties: { message: { type: 'string' } } } } };

const base: OpenApiDocument = {
  paths: {
    '/api/bar/list': {
      post: {
        'x-permissions': { anyOf: ['bar-view'] },
        requestBody: { required: true, ...json(ref('BarListRequest')) },
        responses: { '200': reply('BarListReply'), '400': { $ref: '#/components/responses/BadRequest' }, '404': { description: 'No such bar.' } },
      },
    },
    '/api/bar/events': {
      post: {
        'x-permissions': 'authenticated',
        responses: { '200': { description: 'Success.', ...json({ type: 'object', properties: { statusCode: { const: 200 }, data: { type: 'array', items: ref('Event') } } }) } },
      },
    },
    '/api/bar/same': {
      post: { 'x-permissions': 'public', summary: 'Only the prose changes.', requestBody: json({ type: 'object', description: 'Old words.' }), responses: { '200': reply('Plain') } },
    },
    '/api/old/gone': { post: { 'x-permissions': { rule: 'own-record' }, responses: { '200': reply('Plain') } } },
  },
  components: {
    schemas: {
      BarListRequest: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          note: { type: 'string', maxLength: 100 },
          tags: { type: 'array', items: { type: 'string' } },
          when: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        required: ['id'],
        additionalProperties: false,
      },
      BarListReply: {
        type: 'object',
        properties: { statusCode: { type: 'integer', const: 200 }, data: { type: 'array', items: ref('Row') }, total: { type: 'number' } },
        required: ['statusCode', 'data', 'total'],
      },
      Row: {
        allOf: [ref('Keyed'), { type: 'object', properties: { oldField: { type: 'string' }, owner: ref('Person') }, required: ['oldField'] }],
      },
      Keyed: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      Person: { type: 'object', properties: { name: { type: 'string' }, manager: ref('Person') }, required: ['name'] },
      Event: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'a' }, x: { type: 'number' } }, required: ['kind', 'x'] },
          { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'string' } }, required: ['kind', 'y'] },
        ],
      },
      Plain: { type: 'object', properties: { statusCode: { const: 200 } } },
    },
    responses: {
      BadRequest: { description: 'Bad input.', ...json(errorReply) },
      Conflict: { description: 'Taken.', ...json(errorReply) },
    },
  },
};

/** The same document as `base` with every change a reviewer should be told about. */
function headDocument(): OpenApiDocument {
  const head = structuredClone(base);
  const schema = (name: string, ...keys: (string | number)[]) => obj(head, 'components', 'schemas', name, ...keys);
  // request: a type changed, made required with a new limit, array items retyped, a field added (a $ref), one removed
  schema('BarListRequest', 'properties').id = { type: 'string' };
  schema('BarListRequest', 'properties', 'note').maxLength = 200;
  schema('BarListRequest').required = ['id', 'note'];
  schema('BarListRequest', 'properties', 'tags').items = { type: 'integer' };
  schema('BarListRequest', 'properties').comment = ref('Comment');
  delete schema('BarListRequest', 'properties').when;
  obj(head, 'components', 'schemas').Comment = { type: 'object', properties: { text: { type: 'string' }, at: { type: 'string' } }, required: ['text'] };
  // reply: through the allOf and the $refs, a field removed, one added (nullable), one in a recursive schema, a top-level extra retyped and made optional
  schema('Row', 'allOf', 1).properties = { owner: ref('Person'), newField: { type: ['string', 'null'] } };
  schema('Row', 'allOf', 1).required = ['newField'];
  schema('Person', 'properties').email = { type: 'string' };
  schema('BarListReply', 'properties').total = { type: 'integer' };
  schema('BarListReply').required = ['statusCode', 'data'];
  // a union: one alternative's const changes (shows as the field's type)
  schema('Event', 'oneOf', 1, 'properties').kind = { const: 'c' };
  // access and statuses
  const list = obj(head, 'paths', '/api/bar/list', 'post');
  list['x-permissions'] = { anyOf: ['bar-view', 'bar-audit'] };
  delete obj(list, 'responses')['404'];
  obj(list, 'responses')['409'] = { $ref: '#/components/responses/Conflict' };
  // only prose
  obj(head, 'paths', '/api/bar/same', 'post').summary = 'New words.';
  obj(head, 'paths', '/api/bar/same', 'post', 'requestBody', 'content', 'application/json', 'schema').description = 'New words.';
  obj(head, 'components', 'responses', 'Conflict').description = 'Already taken.';
  // shared replies: one changes what it carries, one is new
  obj(head, 'components', 'responses', 'BadRequest', 'content', 'application/json').schema = { ...errorReply, required: ['statusCode'] };
  obj(head, 'components', 'responses').TooManyRequests = { description: 'Slow down.', ...json(errorReply) };
  // operations: one removed, one added (with a path parameter and a non-JSON reply next to it)
  const paths = obj(head, 'paths');
  delete paths['/api/old/gone'];
  paths['/api/foo/bar'] = {
    post: {
      'x-permissions': { anyOf: ['foo-edit'] },
      requestBody: {
        required: true,
        ...json({ type: 'object', properties: { id: { type: 'integer' }, comment: { type: 'string' }, lines: { type: 'array', items: ref('Comment') } }, required: ['id'] }),
      },
      responses: {
        '200': {
          description: 'Success.',
          ...json({
            type: 'object',
            properties: { statusCode: { const: 200 }, data: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
            required: ['statusCode', 'data'],
          }),
        },
      },
    },
  };
  paths['/api/foo-file/{id}'] = {
    get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d+$' } }],
      responses: { '200': { description: 'The file.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
    },
  };
  return head;
}

describe('compareContracts', () => {
  it('names operations, access, statuses and request and reply fields that changed, in a stable order', () => {
    expect(compareContracts(base, headDocument())).toEqual([
      '~ POST /api/bar/events',
      '  reply: ~ data[].kind: type "a" | "b" → "a" | "c"',
      '~ POST /api/bar/list',
      '  access: permission bar-view → permission bar-audit or bar-view',
      '  statuses: + 409; - 404',
      '  request: + body.comment (object, optional)',
      '  request: ~ body.id: type integer → string',
      '  request: ~ body.note: optional → required; maxLength 100 → 200',
      '  request: ~ body.tags[]: type string → integer',
      '  request: - body.when',
      '  reply: + data[].newField (string or null)',
      '  reply: - data[].oldField',
      '  reply: + data[].owner.email (string, optional)',
      '  reply: ~ total: type number → integer; required → optional',
      '+ GET /api/foo-file/{id} (no x-permissions)',
      '  request: + path.id (string, required)',
      '  reply: + reply body (application/octet-stream: string)',
      '+ POST /api/foo/bar (permission foo-edit)',
      '  request: + body.comment (string, optional)',
      '  request: + body.id (integer, required)',
      '  request: + body.lines (array of object, optional)',
      '  reply: + data (object)',
      '  reply: + data.ok (boolean)',
      '- POST /api/old/gone (rule own-record)',
      '~ shared reply BadRequest: changed',
      '+ shared reply TooManyRequests',
    ]);
  });

  it('says nothing when the documents differ only in prose, and nothing for the same document', () => {
    const head = structuredClone(base);
    obj(head, 'paths', '/api/bar/same', 'post').summary = 'New words.';
    obj(head, 'paths', '/api/bar/list', 'post', 'responses', '404').description = 'Gone.';
    obj(head, 'components', 'schemas', 'Person', 'properties', 'name').description = 'What they are called.';
    expect(compareContracts(base, head)).toEqual([]);
    expect(compareContracts(base, base)).toEqual([]);
  });

  it('says "changed" on a union or a body that changes in a way no field shows', () => {
    const head = structuredClone(base);
    // x is only in the first alternative, so it is optional in the merged fields before and after
    obj(head, 'components', 'schemas', 'Event', 'oneOf', 0).required = ['kind'];
    obj(head, 'paths', '/api/bar/list', 'post', 'requestBody').required = false;
    obj(head, 'paths', '/api/bar/same', 'post', 'requestBody', 'content', 'application/json', 'schema').not = { required: ['x'] };
    expect(compareContracts(base, head)).toEqual([
      '~ POST /api/bar/events',
      '  reply: ~ data[]: changed',
      '~ POST /api/bar/list',
      '  request: ~ body: required → optional',
      '~ POST /api/bar/same',
      '  request: ~ body: changed',
    ]);
  });
});

describe('compareMigrations', () => {
  const shipped = [
    { file: '0220-change-request-accounts.sql', sql: '\nALTER TABLE change_requests ADD COLUMN maker_id integer;\n' },
    { file: '0230-export-job-provider-scope.sql', sql: '\n-- export files: the provider scope\nALTER TABLE export_jobs ADD COLUMN provider text;\n' },
  ];

  it('lists new migrations with their first comment line, else their registered name, else their file name', () => {
    const head = [
      ...shipped,
      { file: '0250-kyc-notes.sql', sql: '\nCREATE TABLE kyc_notes (id serial PRIMARY KEY);\n' },
      { file: '0240-review-notes.sql', sql: '\n-- Notes a reviewer leaves on a change request.\n-- (more)\nCREATE TABLE review_notes (id serial PRIMARY KEY);\n' },
      { file: '0260-plain-name.sql', sql: 'SELECT 1;\n' },
      { file: 'README.md', sql: 'not a migration' },
    ];
    expect(compareMigrations(shipped, head, { 250: 'kyc: notes on a review', 240: 'ignored: the comment wins' })).toEqual([
      '+ 0240-review-notes.sql: Notes a reviewer leaves on a change request.',
      '+ 0250-kyc-notes.sql: kyc: notes on a review',
      '+ 0260-plain-name.sql: plain name',
    ]);
  });

  it('flags an edited, removed or renamed shipped migration and a new id below the highest, first', () => {
    const head = [
      { file: '0220-change-request-accounts.sql', sql: shipped[0]!.sql.replace('integer', 'bigint') },
      { file: '0225-late.sql', sql: '-- arrives late\nSELECT 1;\n' },
      { file: '0240-next.sql', sql: '-- the next one\nSELECT 1;\n' },
    ];
    expect(compareMigrations(shipped, head)).toEqual([
      '!! 0220-change-request-accounts.sql: FROZEN MIGRATION EDITED. A database that applied it refuses to start (checksum mismatch); restore the file and put the change in a new migration',
      '!! 0230-export-job-provider-scope.sql: FROZEN MIGRATION REMOVED. A database that applied it refuses to start; restore the file',
      '!! 0225-late.sql: NEW MIGRATION BELOW THE HIGHEST SHIPPED ID (0230). A database that applied that refuses it; take the next free id above',
      '+ 0225-late.sql: arrives late',
      '+ 0240-next.sql: the next one',
    ]);
    const renamed = [shipped[0]!, { file: '0230-export-scope.sql', sql: shipped[1]!.sql }];
    expect(compareMigrations(shipped, renamed)).toEqual(['!! 0230-export-job-provider-scope.sql: FROZEN MIGRATION RENAMED to 0230-export-scope.sql. Shipped migrations keep their file name']);
    expect(compareMigrations(shipped, shipped)).toEqual([]);
  });
});

describe('renderReview with the contract and migrations', () => {
  it('prints a frozen migration under the summary, and the contract and migrations as diff blocks', () => {
    const text = renderReview(
      [],
      { base: 'main (abc1234)', head: 'the working tree', generated: ['changed: generated/openapi.json'] },
      {
        contract: ['+ POST /api/foo/bar (permission foo-edit)', '  request: + body.comment (string, optional)', '- POST /api/old/gone (rule own-record)'],
        migrations: ['!! 0230-x.sql: FROZEN MIGRATION EDITED. Restore it', '+ 0240-y.sql: y'],
      },
    );
    expect(text).toBe(
      [
        '# Review: main (abc1234) → the working tree',
        '',
        '**0 permission widening(s)**, 0 narrowing(s), 0 route, menu or call change(s), 0 screen change(s), 0 message change(s), 2 contract change(s), 1 new migration(s).',
        '',
        '**Frozen migrations touched (1): the change cannot ship as it is.**',
        '',
        '- !! 0230-x.sql: FROZEN MIGRATION EDITED. Restore it',
        '',
        '## Contract: generated/openapi.json (2)',
        '',
        '```diff',
        '+ POST /api/foo/bar (permission foo-edit)',
        '  request: + body.comment (string, optional)',
        '- POST /api/old/gone (rule own-record)',
        '```',
        '',
        '## Migrations (2)',
        '',
        '```diff',
        '!! 0230-x.sql: FROZEN MIGRATION EDITED. Restore it',
        '+ 0240-y.sql: y',
        '```',
        '',
        '## Generated files that differ (1)',
        '',
        '- changed: generated/openapi.json',
        '',
      ].join('\n'),
    );
  });
});
