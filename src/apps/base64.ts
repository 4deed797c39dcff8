/**
 * The bytes of a base64 string (throws on malformed input, as `atob` does). A plain loop: `Uint8Array.from(binary,
 * mapFn)` calls a function per byte (a 4.3 MB View: 1.6-2.6 s against 0.13 s).
 */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
