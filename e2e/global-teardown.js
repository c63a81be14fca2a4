// Stops what e2e/global-setup.js started (see it for why this is JavaScript).
import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { stopSharedStackService } = await tsImport('./shared-stack.ts', import.meta.url);
  await stopSharedStackService();
}
