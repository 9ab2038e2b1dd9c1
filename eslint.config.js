// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** The engine must stay a pure function of (state, input): no I/O, no clocks, no ambient randomness. */
const engineImportBans = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'process',
  'worker_threads',
  '@nestjs/*',
  '@prisma/*',
  'socket.io',
  'socket.io-client',
  'pg',
  'bullmq',
  'ioredis',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '.reports/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain JS outside the TypeScript project (tsconfig has no allowJs): lint without type information.
    files: ['bin/**/*.js', 'eslint.config.js', '**/*.mjs', '**/*.cjs', 'skills/**/*.js', 'test/**/fixtures/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  {
    // The visualizer runs in browsers (its own tsconfig adds the DOM types).
    files: ['visualizer/**/*.ts', 'visualizer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // vitest's asymmetric matchers (expect.any, expect.stringContaining) are typed `any`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // The win-probability model is a pure view of a position too (src/eval), shared with the browser;
    // so is a person's decision form (src/human), shared by the seat page and the terminal.
    files: ['src/game/**/*.ts', 'src/eval/**/*.ts', 'src/human/**/*.ts'],
    ignores: ['src/game/**/*.spec.ts', 'src/eval/self-play.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: engineImportBans, message: 'src/game is pure: no I/O, clocks or ambient randomness.' }] }],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded PRNG in the game state.' },
        { object: 'Date', property: 'now', message: 'Time is an input to decide().' },
        { object: 'performance', property: 'now', message: 'Time is an input to decide().' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'src/game never reads the process.' },
        { name: 'Date', message: 'Time is an input to decide().' },
        { name: 'setTimeout', message: 'src/game is synchronous and pure.' },
        { name: 'fetch', message: 'src/game does no I/O.' },
      ],
    },
  },
);
