// ESLint (flat config): the rules of `@eslint/js` and typescript-eslint's
// recommended set, for the TypeScript and the JavaScript of the repository.
// `npm run lint` runs it; `npm test` runs it first. Formatting is Prettier's
// (`npm run format`), so no rule here is about layout.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed parameters and variables are unused on purpose (a position in a signature).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `{}` is commander's (extra-typings') type for "no options": the empty object literal type is meant.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
      // A `let` read by a closure before its one assignment (a progress bar made later) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // bin/ and the .cjs files are CommonJS.
    files: ['bin/**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
