import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { repositoryQueriesRule } from './scripts/eslint/repository-queries.js';
import { domainLayersRule } from './scripts/eslint/domain-layers.js';
import { workflowImportsRule } from './scripts/eslint/workflow-imports.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.data/',
      '.tools/',
      '.venv-st/',
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
  // The import graph points one way (docs/architecture.md): api, temporal and integrations compose;
  // activities and workflows run the long-lived processes; domain holds the rules; infra is the floor.
  {
    files: ['domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/api/**',
                '**/temporal/**',
                '**/workflows/**',
                '**/activities/**',
                '**/integrations/**',
                '**/config/**',
              ],
              message: 'Domain code is used by api, temporal and activities, never the other way round.',
            },
            {
              group: [
                '@temporalio/*',
                'stripe',
                'nodemailer',
                '@aws-sdk/*',
                'express',
                'better-auth',
                'better-auth/*',
              ],
              message:
                'Outside services and frameworks are reached through a domain interface implemented in integrations/ (or api/, temporal/).',
            },
          ],
        },
      ],
    },
  },
  {
    // Pure files: deterministic, no I/O; safe for workflows and the web app. Types may come from anywhere.
    // Every file of domain/prices is pure: each price type's module is read by the web app too.
    files: ['domain/**/schemas.ts', 'domain/**/rules.ts', 'domain/**/views.ts', 'domain/prices/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/repository.js',
                '**/service.js',
                '**/infra/**',
                '**/generated/**',
                '**/api/**',
                '**/temporal/**',
                '**/workflows/**',
                '**/activities/**',
                '**/integrations/**',
                '**/config/**',
              ],
              allowTypeImports: true,
              message:
                'schemas.ts, rules.ts and views.ts are pure: they may take types from a repository, not call it.',
            },
            {
              group: ['node:fs', 'node:fs/*', 'node:net', 'node:http', 'node:https', 'node:child_process'],
              message: 'Pure files do no I/O.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['infra/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/domain/**',
                '**/api/**',
                '**/temporal/**',
                '**/workflows/**',
                '**/activities/**',
                '**/integrations/**',
                '**/config/**',
              ],
              message:
                'infra/ is the floor (database, logger, processes): it imports nothing of the application.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['integrations/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/**', '**/temporal/**', '**/workflows/**', '**/activities/**'],
              message:
                'An integration implements a domain interface; it does not reach into the layers that compose it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/**', '**/temporal/**', '**/workflows/**', '**/integrations/**', '**/config/**'],
              message:
                'Activities get their adapters (processor, mailer, workflow starters) injected by the worker (temporal/worker.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/domain/**/repository*',
                '**/domain/**/service*',
                '**/infra/**',
                '**/api/**',
                '**/temporal/**',
                '**/workflows/**',
                '**/activities/**',
                '**/integrations/**',
                '**/config/**',
              ],
              allowTypeImports: true,
              message:
                'The web app talks to the server over HTTP; from the server it may import only pure domain files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    plugins: { tollgate: { rules: { 'workflow-imports': workflowImportsRule } } },
    rules: { 'tollgate/workflow-imports': 'error' },
  },
  // Queries only in repositories (docs/architecture.md, "One domain"); infra/ implements the client.
  // Tools (scripts/, bench/), tests and their helpers, and the web app (no database) are left out.
  {
    files: ['{api,activities,config,domain,integrations,temporal,workflows}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { repositories: { rules: { 'queries-in-repositories': repositoryQueriesRule } } },
    rules: { 'repositories/queries-in-repositories': 'error' },
  },
  // Inside domain/, layers (docs/architecture.md, "Domain layers"): foundation, entities, catalogue,
  // holdings, processes; a domain loads only the layers below it and what its row allows.
  {
    files: ['domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'tollgate-domain': { rules: { 'domain-layers': domainLayersRule } } },
    rules: { 'tollgate-domain/domain-layers': 'error' },
  },
);
