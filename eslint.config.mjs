// The lint of posenc's hand-written JavaScript (the CTest js_lint runs it). One dialect: strict ES2020
// (const/let, no var); the page's modules (web/page/) are ES modules assembled into one script at build
// time (scripts/assemble-js.mjs); the other files under web/ are classic scripts served as they are;
// tests, benchmarks and scripts are node ES modules.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['web/page/*.js'],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: 'module',
      // Module: Emscripten's module object (posenc.js), created by the page and extended by the loader.
      globals: { ...globals.browser, Module: 'readonly' },
    },
  },
  {
    files: ['web/*.js'],
    languageOptions: { ecmaVersion: 2020, sourceType: 'script', globals: globals.browser },
  },
  {
    // Node scripts whose page.evaluate() callbacks run in the page (browser globals, Module).
    files: ['scripts/*.mjs', 'tests/e2e/*.mjs', 'tests/app/*.mjs', 'bench/*.mjs', '*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser, Module: 'readonly' },
    },
  },
  {
    rules: {
      'no-unused-vars': ['error', { caughtErrors: 'none' }],
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
];
