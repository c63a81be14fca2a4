import type { Readable } from 'node:stream';

/** A part announced at creation, as stored on the file. */
export type PlannedPart = {
  number: number;
  chunk_start: number;
  chunk_end: number;
  checksum_sha256_base64: string | null;
};

export type PresignedPart = PlannedPart & { url: string; expires_at: Date; headers: Record<string, string> };

/** What the store holds once every part is assembled. */
export type StoredObject = {
  size: number;
  sha256: Buffer;
  etag: string | null;
  version: string | null;
  lastModifiedAt: Date;
};

/** The bytes were not what the client said they were; nothing is kept of the assembly. */
export class UploadRejected extends Error {
  constructor(
    message: string,
    readonly partIndex?: number,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

/**
 * Where file bytes live: the local disk or an S3-compatible bucket. Uploads are multipart, as
 * Polar's clients expect: each part is PUT to its own expiring URL, then completed.
 */
export type FileStorage = {
  startUpload(input: {
    fileId: string;
    path: string;
    mimeType: string;
    size: number;
    parts: PlannedPart[];
  }): Promise<{ uploadId: string; parts: PresignedPart[] }>;
  completeUpload(input: {
    fileId: string;
    path: string;
    uploadId: string;
    /** The byte ranges announced at creation, to check each part's checksum against. */
    planned: PlannedPart[];
    parts: { number: number; checksum_etag: string; checksum_sha256_base64: string | null }[];
  }): Promise<StoredObject>;
  /** The stored bytes, or null when there are none. */
  read(path: string): Promise<Readable | null>;
  /** Stores bytes Tollgate made itself (invoices) under `path`, replacing any there. */
  write(input: { path: string; bytes: Uint8Array; mimeType: string }): Promise<void>;
  /**
   * A URL that downloads the object for `expiresInMs` without a session (an S3 presigned URL, or
   * a signed link to Tollgate for the local store), offered to the browser as `filename`.
   */
  downloadUrl(input: {
    path: string;
    filename: string;
    mimeType: string;
    expiresInMs: number;
  }): Promise<string>;
  /** Removes the bytes and any unfinished upload; removing nothing is not an error. */
  remove(input: { fileId: string; path: string; uploadId: string }): Promise<void>;
};
