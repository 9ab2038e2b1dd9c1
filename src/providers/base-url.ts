/**
 * The base URL without trailing slashes, ready for `${base}/path`. A bad one is configuration, so
 * it throws when the provider is built rather than turning every call into 'unavailable'.
 *
 * @example
 * checkedBaseUrl('http://localhost:11434/v1/'); // 'http://localhost:11434/v1'
 * checkedBaseUrl('localhost:11434');            // throws: not an http(s) URL
 */
export function checkedBaseUrl(baseUrl: string): string {
  let protocol: string;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new Error(`provider baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  return baseUrl.replace(/\/+$/, '');
}
