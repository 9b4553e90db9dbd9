/**
 * Tells an image's type from its first bytes, ignoring its name and declared type. Only the three
 * formats the spec allows (PNG, JPEG, GIF) are recognised.
 */
const SIGNATURES: { type: 'image/png' | 'image/jpeg' | 'image/gif'; ext: string; bytes: number[] }[] = [
  { type: 'image/png', ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', ext: 'gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61] }, // GIF87a
  { type: 'image/gif', ext: 'gif', bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61] }, // GIF89a
];

export function detectImageType(bytes: Uint8Array): { type: string; ext: string } | null {
  const match = SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[i] === b));
  return match ? { type: match.type, ext: match.ext } : null;
}
