import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type * as Bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

type EngineModule = typeof Bg;

/** No externally managed tables or enums; every engine command wants the filter spelled out. */
export const NO_FILTER = { externalTables: [], externalEnums: [] };

let loading: Promise<EngineModule> | undefined;

/** The slice of the WebAssembly global used here (tsconfig's lib has no DOM, so no typings). */
type Wasm = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, unknown>,
  ) => { exports: Record<string, unknown> };
};

/**
 * Prisma's official schema engine, compiled to WASM, instantiated by hand: the package's main
 * entry imports its `.wasm` as an ES module, which Node cannot load. Compiled once per process.
 */
function loadEngine(): Promise<EngineModule> {
  loading ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const require = createRequire(import.meta.url);
    const wasmPath = require
      .resolve('@prisma/schema-engine-wasm/schema_engine_bg')
      .replace(/\.js$/, '.wasm');
    const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
    const instance = new wasm.Instance(new wasm.Module(await readFile(wasmPath)), {
      './schema_engine_bg.js': bg,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return loading;
}

/**
 * Runs `fn` with a schema engine speaking through `factory`. The engine is freed afterwards; the
 * factory's connections are the caller's to close (free() does not close them).
 */
export async function withSchemaEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngine();
  const engine = await SchemaEngine.new(
    { datamodels: undefined },
    () => {},
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}
