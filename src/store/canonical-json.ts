/**
 * Object keys as JSON string literals, memoised: the same few hundred keys recur in every event,
 * and quoting them is a noticeable share of hashing a log. Bounded, so arbitrary keys (an agent's
 * memory, say) cannot grow it without limit; past the bound keys are simply quoted each time.
 */
const QUOTED = new Map<string, string>();
const MAX_QUOTED = 10_000;

function quoted(key: string): string {
  let q = QUOTED.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (QUOTED.size < MAX_QUOTED) QUOTED.set(key, q);
  }
  return q;
}

/**
 * The canonical JSON the hash chain and state hashes are computed over: RFC 8785 (JCS) for the
 * values JSON.parse can produce. Object members sorted by key in UTF-16 code-unit order (what
 * `Array#sort` does), no whitespace, numbers and strings exactly as `JSON.stringify` writes them
 * (ES shortest round-trip numbers, the same escapes), members whose value is `undefined` omitted,
 * as JSON.stringify omits them. Key order in the input therefore never changes a hash.
 *
 * It runs over every event of every stored game (hash chain, verify), so it is written for speed:
 * a key list already in order (most of a state's are) is not sorted again, and keys are quoted once.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) === '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot hold ${value}`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      // undefined, a function or a symbol (a bigint too, though JSON.stringify's own TypeError said so before)
      throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i) out += ',';
      const v: unknown = value[i];
      out += v === undefined ? 'null' : canonicalJson(v);
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  const keys = canonicalKeys(obj);
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = obj[k];
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += quoted(k) + ':' + canonicalJson(v);
  }
  return out + '}';
}

/**
 * An object's own keys in canonical order (UTF-16 code units, as `Array#sort`), sorted only when
 * they are not in order already: most objects the engine builds are.
 */
export function canonicalKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) return keys.sort();
  }
  return keys;
}
