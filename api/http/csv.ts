import { once } from 'node:events';
import type { Response } from 'express';

/**
 * Streams a CSV export. The first line is produced before anything is sent, so a refused caller
 * (404, 403) still gets its JSON error; a slow reader makes the export wait instead of buffering
 * every row in memory.
 */
export async function streamCsv(res: Response, lines: AsyncGenerator<string>, filename: string) {
  const header = await lines.next();
  res.status(200);
  res.set({
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${filename}"`,
  });
  if (!header.done) res.write(header.value);
  for await (const line of lines) {
    if (!res.write(line)) await once(res, 'drain');
  }
  res.end();
}
