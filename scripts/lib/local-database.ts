import path from 'node:path';
import { findFreePort } from '../../infra/processes.js';
import { resolveDataDir } from './paths.js';
import { startLocalPostgres } from './postgres.js';

/**
 * A PostgreSQL for tooling (migrations, tests, benchmarks): DATABASE_URL's server when set,
 * otherwise a project-local cluster under `<dataDir>/<name>` on a free port.
 */
export async function openToolingPostgres(options: { name: string; dataDir?: string; durable?: boolean }) {
  const external = process.env.DATABASE_URL;
  if (external) {
    const adminUrl = new URL(external);
    adminUrl.pathname = '/postgres';
    return {
      urlFor: (database: string) => {
        const url = new URL(external);
        url.pathname = `/${database}`;
        return url.toString();
      },
      adminUrl: adminUrl.toString(),
      stop: async () => undefined,
    };
  }
  const dataDir = resolveDataDir(options.dataDir ?? '.data');
  const cluster = await startLocalPostgres({
    dataDir: path.join(dataDir, options.name),
    port: await findFreePort(),
    logFile: path.join(dataDir, 'logs', `${options.name}.log`),
    durable: options.durable,
  });
  return { urlFor: cluster.superuserUrl, adminUrl: cluster.superuserUrl('postgres'), stop: cluster.stop };
}
