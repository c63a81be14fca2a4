// B7's view into the worker's workflow threads, whose heaps process.memoryUsage() in the main
// thread does not count. Preloaded with `--require`, which Node also runs in every worker thread
// (`--import` it does not, on Node 20): each thread answers `measure` on the `b7-memory` channel
// with its own heap after two forced collections (the process runs with --expose-gc), and with how
// many V8 contexts it holds: a workflow thread holds the workflow sandbox (a vm context) besides its
// own; other threads (tsx's module loader) do not. Plain CommonJS: tsx's hooks are not registered
// in worker threads.
'use strict';

const { isMainThread, threadId, BroadcastChannel } = process.getBuiltinModule('node:worker_threads');
const v8 = process.getBuiltinModule('node:v8');

if (!isMainThread) {
  const channel = new BroadcastChannel('b7-memory');
  // Never what keeps a thread alive.
  channel.unref();
  channel.onmessage = ({ data }) => {
    if (data?.type !== 'measure') return;
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, heapTotal, external } = process.memoryUsage();
    const contexts = v8.getHeapStatistics().number_of_native_contexts;
    channel.postMessage({ type: 'measured', id: data.id, threadId, contexts, heapUsed, heapTotal, external });
  };
}
