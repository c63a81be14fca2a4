import path from 'node:path';
import type { FileStorage } from '../domain/files/storage.js';
import type { Config } from '../config/config.js';
import { LocalFileStorage } from './local-disk/storage.js';
import { S3FileStorage } from './s3/storage.js';

/** The S3-compatible bucket when S3_BUCKET is set, else the local disk under DATA_DIR/files. */
export function createFileStorage(
  config: Pick<
    Config,
    | 'DATA_DIR'
    | 'publicUrl'
    | 'S3_BUCKET'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
  >,
  secret: string,
): FileStorage {
  if (config.S3_BUCKET) {
    return new S3FileStorage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalFileStorage({
    root: path.resolve(config.DATA_DIR, 'files'),
    publicUrl: config.publicUrl,
    secret,
  });
}
