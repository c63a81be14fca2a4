// Writes prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the schema
// as of the newest migration (prisma/last-migration.prisma) and prisma/schema.prisma.
// Prisma 6.19 cannot run `migrate dev` offline (see README, "Database migrations").
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openToolingPostgres } from './lib/local-database.js';
import { projectRoot } from './lib/paths.js';
import { runPrisma } from './lib/prisma-cli.js';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <name>   (name: lowercase letters, digits, underscores)');
  process.exit(2);
}

const schema = path.join(projectRoot, 'prisma', 'schema.prisma');
const snapshot = path.join(projectRoot, 'prisma', 'last-migration.prisma');
const database = await openToolingPostgres({ name: 'tooling-postgres' });
try {
  const from = existsSync(snapshot) ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
  const sql = await runPrisma(
    ['migrate', 'diff', ...from, '--to-schema-datamodel', schema, '--script'],
    database.urlFor('postgres'),
  );
  if (!/^\s*(CREATE|ALTER|DROP|COMMENT)/m.test(sql)) {
    console.log('prisma/schema.prisma has no changes since the last migration; nothing written.');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const folder = path.join(projectRoot, 'prisma', 'migrations', `${stamp}_${name}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'migration.sql'), sql);
    copyFileSync(schema, snapshot);
    console.log(`wrote ${path.relative(projectRoot, folder)}/migration.sql`);
  }
} finally {
  await database.stop();
}
