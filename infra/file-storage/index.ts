import path from 'node:path';
import type { FileStorage } from '../../domain/files/storage.js';
import type { Config } from '../config.js';
import { LocalFileStorage } from './local.js';

/** The local disk under DATA_DIR/files. */
export function createFileStorage(
  config: Pick<Config, 'DATA_DIR' | 'publicUrl'>,
  secret: string,
): FileStorage {
  return new LocalFileStorage({
    root: path.resolve(config.DATA_DIR, 'files'),
    publicUrl: config.publicUrl,
    secret,
  });
}
