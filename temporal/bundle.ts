import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

/** Sources use NodeNext `.js` specifiers; let webpack find the `.ts` file behind each. */
export function resolveTypeScriptSpecifiers(config: WebpackConfig): WebpackConfig {
  return { ...config, resolve: { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } } };
}

/** workflows/index.ts when running from sources, dist/workflows/index.js when compiled. */
export function workflowsEntryPath(): string {
  const compiled = fileURLToPath(new URL('../workflows/index.js', import.meta.url));
  return existsSync(compiled) ? compiled : compiled.replace(/\.js$/, '.ts');
}

const quietLogger = { info() {}, debug() {}, trace() {}, log() {}, warn: console.warn, error: console.error };

export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: workflowsEntryPath(),
    webpackConfigHook: resolveTypeScriptSpecifiers,
    logger: quietLogger,
  });
}
