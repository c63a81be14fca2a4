// Jest loads its global set-up outside its own module system, where `./x.js` does not find the
// TypeScript source `./x.ts`: tsx's loader does.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { startSharedStackService } = await tsImport('./shared-stack.ts', import.meta.url);
  await startSharedStackService();
}
