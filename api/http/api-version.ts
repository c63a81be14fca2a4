import type { RequestHandler, Response } from 'express';
import {
  API_VERSION_HEADER,
  readApiVersionHeader,
  unknownVersionDetail,
  type RequestedApiVersion,
} from '../../domain/platform/api-versions.js';

/**
 * Reads `Polar-Version` once per request. A version this server does not speak is a 404 before
 * anything else runs, as Polar's server answers it (status and `{ detail }` body), with words that
 * say which versions exist; a known one is echoed on the response, errors included.
 */
export const readApiVersion: RequestHandler = (req, res, next) => {
  const header = req.get(API_VERSION_HEADER);
  const version = readApiVersionHeader(header);
  if (version === undefined) {
    res.status(404).json({ detail: unknownVersionDetail(header ?? '') });
    return;
  }
  res.locals.apiVersion = version;
  if (version) res.setHeader(API_VERSION_HEADER, version);
  next();
};

/** The version the request asked for; null (the unversioned API) where no version was read. */
export function apiVersionOf(res: Response): RequestedApiVersion {
  return (res.locals.apiVersion as RequestedApiVersion | undefined) ?? null;
}
