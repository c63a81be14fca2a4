import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Instrumentation } from '@opentelemetry/instrumentation';

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  attributes: Record<string, string | number | boolean | undefined>;
};

type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: { key: string; value: OtlpValue }[];
      }[];
    }[];
  }[];
};

const plain = (value: OtlpValue) => value.stringValue ?? value.intValue ?? value.boolValue;
const attributesOf = (list: { key: string; value: OtlpValue }[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/** An OTLP/HTTP collector on loopback that keeps every span posted to `/v1/traces` as JSON. */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              service,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Jest loads modules through its own registry, which the instrumentations' require and import
 * hooks never see; a test applies their patches to the modules it loaded itself (`pg`, `http`),
 * exactly as the hooks do when a process loads them.
 */
export function patchLoadedModules(
  instrumentations: Instrumentation[],
  loaded: Record<string, { exports: unknown; version?: string }>,
): void {
  for (const instrumentation of instrumentations) {
    const definitions = (
      instrumentation as unknown as {
        getModuleDefinitions?: () => {
          name: string;
          patch?: (exports: unknown, version?: string) => unknown;
        }[];
      }
    ).getModuleDefinitions?.();
    for (const definition of definitions ?? []) {
      const module = loaded[definition.name];
      if (module) definition.patch?.(module.exports, module.version);
    }
  }
}
