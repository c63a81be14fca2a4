import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { projectRoot } from './paths.js';

const execFileAsync = promisify(execFile);
const prismaBin = path.join(projectRoot, 'node_modules', '.bin', 'prisma');

export async function runPrisma(args: string[], databaseUrl: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(prismaBin, args, {
      cwd: projectRoot,
      // No update check: it phones home from a detached child process that outlives the command
      // (and would outlive `npm start`'s Ctrl-C); Tollgate runs offline.
      env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`prisma ${args.join(' ')} failed: ${(stderr || stdout || String(error)).trim()}`, {
      cause: error,
    });
  }
}

const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');

/**
 * The migrations of `prisma/migrations` the database has not applied as they are now: missing
 * from `_prisma_migrations`, unfinished or rolled back, or applied from a file that has changed
 * since (its checksum, a SHA-256 of migration.sql, differs). A database that cannot be read this
 * way (absent, no table yet) has them all pending.
 */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const local = readdirSync(migrationsDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, 'migration.sql')),
    )
    .map((entry) => ({
      name: entry.name,
      checksum: createHash('sha256')
        .update(readFileSync(path.join(migrationsDir, entry.name, 'migration.sql')))
        .digest('hex'),
    }));
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string; checksum: string }>(
      `SELECT migration_name AS name, checksum FROM _prisma_migrations
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => `${row.name} ${row.checksum}`));
    return local
      .filter((migration) => !applied.has(`${migration.name} ${migration.checksum}`))
      .map((m) => m.name);
  } catch {
    return local.map((migration) => migration.name);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `prisma migrate deploy`, unless every migration is applied already: the schema engine idles
 * ~10 s on a timer even when it has nothing to do, at every start.
 */
export async function migrateDeploy(databaseUrl: string): Promise<void> {
  if ((await pendingMigrations(databaseUrl)).length === 0) return;
  await runPrisma(['migrate', 'deploy'], databaseUrl);
}
