// Installs the pinned tools the stack and the tests need into .tools/ (idempotent, cached).
// Usage: npm run provision [-- temporal stripe-mock gofakes3 test-server chromium schemathesis polar-python]   (default: all)
import {
  MissingToolError,
  ensureChromium,
  ensureFakeS3,
  ensurePolarPython,
  ensureSchemathesis,
  ensureStripeMock,
  ensureTemporalCli,
  ensureTemporalTestServer,
} from './lib/tools.js';

const provisioners = {
  temporal: ensureTemporalCli,
  'test-server': ensureTemporalTestServer,
  'stripe-mock': ensureStripeMock,
  gofakes3: ensureFakeS3,
  chromium: ensureChromium,
  schemathesis: ensureSchemathesis,
  'polar-python': ensurePolarPython,
} as const;

type ToolName = keyof typeof provisioners;
const isToolName = (name: string): name is ToolName => name in provisioners;

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !isToolName(name));
if (unknown.length > 0) {
  console.error(
    `tollgate: unknown tool ${unknown.join(', ')}; known: ${Object.keys(provisioners).join(', ')}`,
  );
  process.exit(2);
}
const names = (requested.length > 0 ? requested : Object.keys(provisioners)) as ToolName[];

try {
  for (const name of names) {
    const location = await provisioners[name]((line) => console.log(`  … ${line}`));
    console.log(`  ✓ ${name}: ${location}`);
  }
} catch (error) {
  if (error instanceof MissingToolError) {
    console.error(`tollgate: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
