import { readFile } from 'node:fs/promises';
import {
  Client,
  Connection,
  type ConnectionOptions,
  type WorkflowClientInterceptor,
} from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions } from '@temporalio/worker';
import type { Config } from '../config/config.js';

type TemporalSettings = Pick<
  Config,
  | 'temporalAddress'
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TLS'
  | 'TEMPORAL_TLS_CERT_PATH'
  | 'TEMPORAL_TLS_KEY_PATH'
  | 'TEMPORAL_API_KEY'
>;

async function tlsOptions(settings: TemporalSettings): Promise<ConnectionOptions['tls']> {
  if (settings.TEMPORAL_TLS_CERT_PATH && settings.TEMPORAL_TLS_KEY_PATH) {
    return {
      clientCertPair: {
        crt: await readFile(settings.TEMPORAL_TLS_CERT_PATH),
        key: await readFile(settings.TEMPORAL_TLS_KEY_PATH),
      },
    };
  }
  // An API key (Temporal Cloud) implies TLS.
  return settings.TEMPORAL_TLS || settings.TEMPORAL_API_KEY ? true : undefined;
}

/** `interceptors`: the workflow client's (temporal/tracing.ts carries a trace into the workflows). */
export async function connectTemporalClient(
  settings: TemporalSettings,
  interceptors: WorkflowClientInterceptor[] = [],
): Promise<Client> {
  const connection = await Connection.connect({
    address: settings.temporalAddress,
    tls: await tlsOptions(settings),
    apiKey: settings.TEMPORAL_API_KEY,
    connectTimeout: '5s',
  });
  return new Client({
    connection,
    namespace: settings.TEMPORAL_NAMESPACE,
    ...(interceptors.length > 0 ? { interceptors: { workflow: interceptors } } : {}),
  });
}

export async function connectTemporalWorker(settings: TemporalSettings): Promise<NativeConnection> {
  const options: NativeConnectionOptions = {
    address: settings.temporalAddress,
    tls: (await tlsOptions(settings)) as NativeConnectionOptions['tls'],
    apiKey: settings.TEMPORAL_API_KEY,
  };
  return NativeConnection.connect(options);
}
