import path from 'node:path';
import { defineConfig } from 'prisma/config';
// The 6.19 adapter cannot read Postgres' `name` column type during migrations (prisma/orm#27403);
// the 7.x adapter can, so only the migration CLI uses it. The app runs on @prisma/adapter-pg 6.19.
import { PrismaPg } from 'adapter-pg7';

// `generate`, `validate` and `format` need no database, but when env("DATABASE_URL") cannot be
// resolved the 6.19 CLI falls back to downloading a query engine, which fails offline. Those
// commands get an unreachable placeholder; every other command needs the real database (even a
// schema-to-schema `migrate diff` connects through the adapter: scripts/new-migration.ts starts one).
const commandsWithoutDatabase = ['generate', 'validate', 'format'];
if (!process.env.DATABASE_URL && process.argv.some((arg) => commandsWithoutDatabase.includes(arg))) {
  process.env.DATABASE_URL = 'postgresql://no-database@127.0.0.1:1/none';
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL is not set');
    return new PrismaPg({ connectionString });
  },
});
