import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workflowTracingInterceptorsPath } from './tracing.js';
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

/**
 * With `tracing`, the OpenTelemetry workflow interceptors are bundled in (temporal/tracing.ts): a
 * worker running that bundle must inject their span sink, so a deployment builds both bundles.
 */
export async function bundleWorkflows(
  options: { tracing?: boolean } = {},
): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: workflowsEntryPath(),
    ...(options.tracing ? { workflowInterceptorModules: [workflowTracingInterceptorsPath()] } : {}),
    webpackConfigHook: resolveTypeScriptSpecifiers,
    logger: quietLogger,
  });
}
