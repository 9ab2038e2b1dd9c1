import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { ExportSink } from '../research/export-stream.js';
import { UsageError, type CliIo } from './io.js';

/** A file opened for writing, as a sink that waits for the file to drain; refused paths fail here. */
export async function fileSink(path: string): Promise<{ sink: ExportSink; close: () => Promise<void> }> {
  const stream: WriteStream = createWriteStream(path);
  let failed: Error | null = null;
  stream.on('error', (e) => (failed = e));
  // `once` rejects on 'error': a folder that does not exist, a file we may not write.
  await once(stream, 'open').catch((e: unknown) => {
    throw new UsageError(`--out: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  });
  return {
    sink: {
      async write(text) {
        if (failed) throw failed;
        if (!stream.write(text)) await once(stream, 'drain');
      },
    },
    close: async () => {
      stream.end();
      await once(stream, 'finish');
    },
  };
}

export const stdoutSink = (io: CliIo): ExportSink => ({
  write(text) {
    io.out(text);
    return io.outDrained?.() ?? Promise.resolve();
  },
});
