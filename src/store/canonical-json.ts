/**
 * The canonical JSON the hash chain and state hashes are computed over: RFC 8785 (JCS) for the
 * values JSON.parse can produce. Object members sorted by key in UTF-16 code-unit order (what
 * `Array#sort` does), no whitespace, numbers and strings exactly as `JSON.stringify` writes them
 * (ES shortest round-trip numbers, the same escapes), members whose value is `undefined` omitted,
 * as JSON.stringify omits them. Key order in the input therefore never changes a hash.
 *
 * @example canonicalJson({ b: 1, a: [true, null] }) === '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError(`canonical JSON cannot hold ${value}`);
    const s = JSON.stringify(value);
    if (s === undefined) throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
    return s;
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
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + canonicalJson(v);
  }
  return out + '}';
}
