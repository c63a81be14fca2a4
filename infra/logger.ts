import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { traceFields } from './trace-context.js';

export type { Logger };

/** `destination`: where lines go (stdout unless given; tests read them). */
export function createLogger(
  options: { level: string; name: string },
  destination?: DestinationStream,
): Logger {
  const settings: LoggerOptions = {
    name: options.name,
    level: options.level,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A line written inside a traced request or activity names its trace (docs/operations.md).
    mixin: traceFields,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
  return destination ? pino(settings, destination) : pino(settings);
}
