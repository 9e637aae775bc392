// Process boundaries of docs/architecture.md, enforced here (as VS Code and Signal-Desktop do):
// the renderer and shared code never reach Node or Electron; core imports only shared and itself;
// the hosts reach core only through its public entry; and the sandbox stays independent of the app
// so that conformance against it means something.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:*'];
// A host may import `…/core` (its public entry, src/core/index.ts) but nothing inside the folder.
const coreInternals = ['**/core/**'];
// Layers below the hosts never reach core at all, not even its entry.
const anyCore = ['**/core', '**/core/**'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

// Flat config only (ESLint 10 removed eslintrc); ESLint's own defineConfig, which replaces
// typescript-eslint's deprecated config() helper.
export default defineConfig(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // A file URL's pathname is no path on Windows (/C:/… and %20 for spaces): contributors there run the
    // tests too. fileURLToPath / pathToFileURL (or import.meta.dirname) convert both ways on every OS.
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='pathname'][object.type='NewExpression'][object.callee.name='URL']:matches(:has(MetaProperty), :has(Literal[value=/^file:/]))",
          message: 'new URL(…).pathname of a file URL is wrong on Windows: use fileURLToPath(…) from node:url (or import.meta.dirname).',
        },
        {
          // `file://${path}`: the scheme glued to a path (\x2F is "/", which ends an esquery regex).
          selector: "TemplateLiteral > TemplateElement:first-child[value.raw=/^file:\\x2F\\x2F\\x2F?$/]",
          message: 'A file URL written by hand is wrong on Windows (C:\\… paths, spaces): use pathToFileURL(path).href from node:url.',
        },
      ],
    },
  },
  {
    // CommonJS on purpose (scripts/require-node.cjs): it must run on any old Node to tell it is too old.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A function longer than this holds more than one concern: split it into named functions or files.
    files: ['src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(
      ['electron', ...nodeBuiltins, '**/main/**', '**/preload/**', '**/sandbox/**', ...anyCore, '**/web-host/**', '**/cli/**'],
      'The renderer is sandboxed: it talks to main only through the bridge.',
    ),
  },
  {
    files: ['src/shared/**'],
    rules: restrict(
      ['electron', ...nodeBuiltins, '**/main/**', '**/renderer/**', '**/sandbox/**', '**/preload/**', ...anyCore, '**/web-host/**', '**/cli/**'],
      'shared/ is pure TypeScript used by every side.',
    ),
  },
  {
    // Core is its own room: it imports only src/shared and itself, so nothing of a host leaks into it.
    files: ['src/core/**'],
    rules: restrict(
      ['electron', '**/main/**', '**/web-host/**', '**/cli/**', '**/renderer/**', '**/sandbox/**', '**/preload/**'],
      'core imports only src/shared and its own files: it is Electron-free and knows nothing of a host or the sandbox.',
    ),
  },
  {
    files: ['src/preload/**'],
    rules: restrict(
      ['**/main/**', ...anyCore, '**/renderer/**', '**/sandbox/**', '**/web-host/**', '**/cli/**', ...nodeBuiltins],
      'preload is the bridge generated from the contract: it imports only src/shared (and electron).',
    ),
  },
  {
    files: ['src/main/**'],
    rules: restrict([...coreInternals, '**/renderer/**', '**/web-host/**', '**/cli/**'], 'The Electron shell reaches core only through its public entry (src/core/index.ts).'),
  },
  {
    files: ['src/cli/**'],
    rules: restrict(['electron', ...coreInternals, '**/renderer/**', '**/sandbox/**', '**/main/**', '**/web-host/**'], 'The CLI is a plain Node host of core, through its public entry (src/core/index.ts).'),
  },
  {
    files: ['src/web-host/**'],
    rules: restrict(
      ['electron', ...coreInternals, '**/renderer/**', '**/preload/**', '**/main/**', '**/cli/**'],
      'The web host is a plain Node host of core, through its public entry (src/core/index.ts); the sandbox only as its demo merchant.',
    ),
  },
  {
    files: ['src/sandbox/**'],
    rules: restrict(['electron', '**/main/**', '**/renderer/**', '**/preload/**', ...anyCore, '**/web-host/**', '**/cli/**'], 'The sandbox is an independent merchant.'),
  },
);
