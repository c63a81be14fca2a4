import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { workflowImportsRule } from './scripts/eslint/workflow-imports.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.data/',
      '.tools/',
      'generated/',
      'web/routeTree.gen.ts',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    plugins: { tollgate: { rules: { 'workflow-imports': workflowImportsRule } } },
    rules: { 'tollgate/workflow-imports': 'error' },
  },
);
