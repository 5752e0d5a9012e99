// ESLint (flat config): typescript-eslint's recommended rules on every TypeScript file, the rules of
// hooks on the console, and the few project choices below. `npm run lint` runs it; `npm test` runs it
// first (package.json), so .ci/run does too.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'bench-results/', 'data/', 'generated/', 'public/', 'tests/fixtures/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // an unused name is a mistake unless it says it is meant: `_` prefix (destructuring to omit a key)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/console/**/*.{ts,tsx}', 'src/custom/**/*.{ts,tsx}', 'src/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    // the rules of hooks; not yet exhaustive-deps (7 findings in DataTable/ListView to judge one by one
    // once the list controller lands) nor the React Compiler rules of eslint-plugin-react-hooks 7
    rules: { 'react-hooks/rules-of-hooks': 'error' },
  },
);
